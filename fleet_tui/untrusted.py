"""Text from an environment is data. Before it reaches a terminal, terminal escape sequences,
control characters and lone surrogates go, and the API key is hidden should an env echo it.

Shared by the headless commands and the UI (no UI code here).
"""

from __future__ import annotations

import re

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

# A C0 control character in a name is shown as its Unicode control picture (ESC as ␛).
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\u2421"}


def encodable(text: str) -> str:
    """`text` with lone surrogates (JSON from an env may hold them; UTF-8 cannot) written as
    `\\udcff` escapes, so printing it never fails and never writes invalid UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def clean(text: str) -> str:
    """`text` without terminal escape sequences, control characters (tabs and newlines kept),
    lone surrogates or the API key."""
    return hide_secret_values(_strip(encodable(text)))


def _strip(text: str) -> str:
    if text.isprintable():
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))


def visible(name: str) -> str:
    """A name (of a tool, an argument) with each character that would not show as itself
    shown as a sign rather than removed: C0 controls as control pictures (ESC as ␛), others
    (C1 controls, zero-width and bidi marks, lone surrogates) as `\\uXXXX`; so a name holding
    one never looks like an ordinary name. The API key is hidden, even split by controls."""
    if not name.isprintable():
        signed, bare = "".join(map(_sign, name)), _strip(name)
        if hide_secret_values(signed) == signed and hide_secret_values(bare) != bare:
            return clean(bare)  # the key split by controls: hidden, at the cost of the signs
        name = signed
    return hide_secret_values(name)


def _sign(character: str) -> str:
    if character.isprintable():
        return character
    code = ord(character)
    return _PICTURES.get(code) or f"\\u{code:04x}"
