"""Printing for the headless commands: JSON on stdout, progress and warnings on stderr, and
environment text with terminal escape sequences removed (env output is untrusted data).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from fleet_tui.session.redact import hide_secret_values

# CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC strings, two-byte escapes, 8-bit CSI/OSC.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[@-Z\\-_]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|\x9d[^\x07\x9c]*[\x07\x9c]?"
)
# What is left of the control characters, keeping tab and newline.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def encodable(text: str) -> str:
    """`text` with lone surrogates (JSON from an env may hold them; UTF-8 cannot) written as
    `\\udcff` escapes, so printing it never fails and never writes invalid UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def clean(text: str) -> str:
    """`text` without terminal escape sequences, control characters (tabs, newlines kept),
    lone surrogates or the API key."""
    text = encodable(hide_secret_values(text))
    if text.isprintable():
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))


def out(text: str = "") -> None:
    """One line of env-derived text on stdout, cleaned."""
    print(clean(text), flush=True)


def err(text: str) -> None:
    """One line on stderr (progress, warnings, notes), cleaned."""
    print(clean(text), file=sys.stderr, flush=True)


def warn(text: str) -> None:
    err(f"warning: {text}")


def print_json(data: Any) -> None:
    """`data` as indented JSON on stdout, without the API key. JSON escapes control characters
    itself."""
    print(encodable(hide_secret_values(pretty_json(data))), flush=True)


def pretty_json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def table(rows: list[list[str]], headers: list[str]) -> str:
    """A plain left-aligned text table; the last column is not padded."""
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers) - 1)]
    lines = []
    for row in [headers, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return "\n".join(lines)


def one_line(text: str) -> str:
    """`text` cleaned, with its lines and runs of whitespace joined by single spaces."""
    return " ".join(clean(text).split())


def first_line(text: str, limit: int = 80) -> str:
    line = clean(text).strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[: limit - 1] + "…"
