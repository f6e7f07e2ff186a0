"""Printing for the headless commands: JSON on stdout, progress and warnings on stderr, and
environment text cleaned first (`fleet_tui.text`)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from fleet_tui.envs.errors import EnvError
from fleet_tui.text import (
    clean,
    encodable,
    hide_secret_values,
    pretty_json,
    shortened,
    signed_formats,
    without_secrets,
)


class Output:
    """Where a command writes: env-derived text and JSON on `stdout`, progress, warnings and
    notes on `stderr` (this process's streams, or a warm-session daemon's forwarding client's);
    `json` says whether the command was asked for JSON (`--json`)."""

    def __init__(
        self, stdout: TextIO | None = None, stderr: TextIO | None = None, *, json: bool = False
    ) -> None:
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.json = json

    def out(self, text: str = "") -> None:
        """One line of env-derived text on stdout, cleaned."""
        print(clean(text), file=self.stdout, flush=True)

    def err(self, text: str) -> None:
        """One line on stderr (progress, warnings, notes), cleaned."""
        print(clean(text), file=self.stderr, flush=True)

    def warn(self, text: str) -> None:
        self.err(f"warning: {text}")

    def failure(self, error: EnvError) -> int:
        """`fleet-tui: MESSAGE` on stderr; the error's exit code."""
        self.err(f"fleet-tui: {error.message}")
        return error.exit_code

    def print_json(self, data: Any) -> None:
        """`data` as indented JSON on stdout, without secrets (even split by escapes). JSON
        escapes C0 control characters itself; C1 and bidi controls get the same `\\uXXXX`
        escapes here (`ensure_ascii=False` would leave them raw)."""
        text = pretty_json(without_secrets(data))
        print(encodable(signed_formats(hide_secret_values(text))), file=self.stdout, flush=True)

    def print_json_line(self, data: Any) -> None:
        """`data` as one line of JSON on stdout (a stream of events), without secrets; every
        non-ASCII character escaped."""
        import json  # not loaded for `--help`

        text = json.dumps(without_secrets(data), separators=(",", ":"), default=str)
        print(hide_secret_values(text), file=self.stdout, flush=True)


def out(text: str = "") -> None:
    """`Output.out` on this process's stdout."""
    Output().out(text)


def err(text: str) -> None:
    """`Output.err` on this process's stderr."""
    Output().err(text)


def warn(text: str) -> None:
    Output().warn(text)


def print_json(data: Any) -> None:
    Output().print_json(data)


def print_json_line(data: Any) -> None:
    Output().print_json_line(data)


COLUMN_LIMIT = 64
"""The widest a padded table column gets: a server's 100,000-character tool name would pad every
row to its width. A longer cell is cut with "…"; `--json` gives it whole."""


def table(rows: list[list[str]], headers: list[str], column_limit: int = COLUMN_LIMIT) -> str:
    """A plain left-aligned text table; the last column is not padded, the others are at most
    `column_limit` wide (longer cells cut with "…")."""
    rows = [[shortened(cell, column_limit) for cell in row[:-1]] + row[-1:] for row in rows]
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers) - 1)]
    lines = []
    for row in [headers, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines)
