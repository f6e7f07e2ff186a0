"""Text from an environment is data: strip terminal escapes and the API key; never let Rich
parse it as markup."""

from __future__ import annotations

import re

from rich.text import Text

from fleet_tui.session.redact import hide_secret_values

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P|X|^|_ ... ST),
# other ESC X, and the 8-bit C1 forms of CSI/OSC.
_ESCAPES = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]            # CSI
    | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?  # OSC
    | \x1b[PX^_][^\x1b]*(?:\x1b\\)?    # DCS, SOS, PM, APC
    | \x1b[@-Z\\-_]                    # other two-byte escapes
    | \x9b[0-?]*[ -/]*[@-~]            # 8-bit CSI
    | \x9d[^\x07\x9c]*[\x07\x9c]?      # 8-bit OSC
    """,
    re.VERBOSE,
)
# Remaining control characters (keep tab and newline), including a lone ESC and C1 controls.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """`text` without terminal escape sequences or control characters (tabs and newlines kept),
    and without the API key should an env echo it (the screen can end up in a screenshot)."""
    if not text.isprintable():
        text = _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))
    return hide_secret_values(text)


def one_line(text: str, limit: int = 200) -> str:
    """The first line of cleaned `text`, shortened to `limit` characters."""
    first = clean(text).strip().split("\n", 1)[0].replace("\t", " ")
    return first if len(first) <= limit else first[: limit - 1] + "…"


def literal(text: str, style: str = "") -> Text:
    """A Rich Text that shows `text` literally (markup is not interpreted)."""
    return Text(clean(text), style=style)
