"""Printing for the headless commands: JSON on stdout, progress and warnings on stderr, and
environment text cleaned first (`fleet_tui.text`)."""

from __future__ import annotations

import sys
from typing import Any

from fleet_tui.text import (
    clean,
    encodable,
    hide_secret_values,
    pretty_json,
    shortened,
    signed_formats,
    without_secrets,
)


def out(text: str = "") -> None:
    """One line of env-derived text on stdout, cleaned."""
    print(clean(text), flush=True)


def err(text: str) -> None:
    """One line on stderr (progress, warnings, notes), cleaned."""
    print(clean(text), file=sys.stderr, flush=True)


def warn(text: str) -> None:
    err(f"warning: {text}")


def print_json(data: Any) -> None:
    """`data` as indented JSON on stdout, without secrets (even split by escapes). JSON escapes
    C0 control characters itself; C1 and bidi controls get the same `\\uXXXX` escapes here
    (`ensure_ascii=False` would leave them raw)."""
    text = pretty_json(without_secrets(data))
    print(encodable(signed_formats(hide_secret_values(text))), flush=True)


def print_json_line(data: Any) -> None:
    """`data` as one line of JSON on stdout (a stream of events), without secrets; every
    non-ASCII character escaped."""
    import json  # not loaded for `--help`

    text = json.dumps(without_secrets(data), separators=(",", ":"), default=str)
    print(hide_secret_values(text), flush=True)


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
