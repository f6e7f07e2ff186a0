"""Text helpers for every layer, the bottom one: it imports nothing from fleet_tui.

- Secrets stay out of what is shown, printed and recorded: API keys (also base64- and
  URL-encoded), bearer tokens, anything named like a secret (`redact`, `hide_secret_values`).
- Text from an environment is data: before it reaches a terminal, terminal escape sequences,
  control characters and lone surrogates go (`clean`, `visible`).
- Short forms: `one_line`, `name_line`, `flat`, `shortened`, `pretty_json`, `describe_seconds`.
- Exceptions as one line for a user: `describe_error`, `named_error`; `PlainError`, one whose
  message is already that line.
"""

from __future__ import annotations

import base64
import functools
import os
import re
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

# Secrets

REDACTED = "[redacted]"

SECRET_NAME = re.compile(
    r"(api|access|secret|private|auth|client)[-_]?key|token|secret|passw|authori[sz]ation"
    r"|cookie|credential",
    re.I,
)
"""Argument and header names whose values are never written. Names like `issue_key`,
`project_key` or a bare `key` (a key to press) are ordinary data an env needs on replay."""

BEARER = re.compile(r"(Bearer\s+)[A-Za-z0-9._~+/=-]+", re.I)

SECRET_ENV_VARS = ("FLEET_API_KEY",)

_given_secrets: set[str] = set()
"""Values of secret-named `--env` variables given to this process (see `remember_secrets`)."""


def remember_secrets(variables: dict[str, str]) -> None:
    """Treat the values of the secret-named `variables` (`--env API_TOKEN=...` for an env) as
    FLEET_API_KEY's: hidden wherever env text is shown, printed or recorded."""
    _given_secrets.update(
        value for name, value in variables.items() if SECRET_NAME.search(name) and len(value) >= 4
    )


def remember_secret_values(values: list[str]) -> None:
    """Treat each of `values` (`--header` values) as a secret, and the credentials after an
    auth scheme (`Bearer abc`: abc) too: hidden wherever env text is shown, printed or
    recorded."""
    for value in values:
        _given_secrets.update(
            part for part in (value, value.split(" ", 1)[-1].strip()) if len(part) >= 4
        )


def _secret_values() -> tuple[str, ...]:
    known = [v for name in SECRET_ENV_VARS if len(v := os.environ.get(name, "")) >= 4]
    return with_encoded_forms(tuple(known + sorted(_given_secrets)))


ENCODED_MIN_LENGTH = 8
"""Secrets this long or longer are also hidden in their encoded forms: shorter ones would make
encoded forms short enough to match ordinary base64 by chance."""


@functools.lru_cache(maxsize=16)
def with_encoded_forms(secrets: tuple[str, ...]) -> tuple[str, ...]:
    """`secrets` and the forms they take on their way through an env (`encoded_forms`), longest
    first: a whole encoded secret is replaced before a part of it could be."""
    forms = set(secrets)
    for secret in secrets:
        if len(secret) >= ENCODED_MIN_LENGTH:
            forms.update(encoded_forms(secret))
    return tuple(sorted(forms, key=lambda form: (-len(form), form)))


def encoded_forms(secret: str) -> set[str]:
    """A secret as an env may send it back: URL-encoded, and base64 (standard and urlsafe,
    padded or not, URL-encoded), also inside a longer base64 string (`Basic` credentials,
    a token in a JWT), where what it looks like depends on where its bytes fall in the
    3-byte groups: the characters only its bytes decide, at each of the 3 offsets."""
    raw = secret.encode("utf-8")
    forms = {urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret)}
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(raw).decode("ascii")
        forms.update((whole, whole.rstrip("="), urllib.parse.quote(whole, safe="")))
        forms.update(_aligned_base64(encode, raw, offset) for offset in range(3))
    forms.discard(secret)
    return forms


def _aligned_base64(encode: Callable[[bytes], bytes], raw: bytes, offset: int) -> str:
    """The base64 characters that `raw`'s bytes alone decide when it starts `offset` bytes into
    a 3-byte group: the first 0, 2 or 3 characters mix in the bytes before it, and the last
    one, unless it ends a group, the bytes after it."""
    text = encode(bytes(offset) + raw).decode("ascii").rstrip("=")
    mixed_end = 1 if (offset + len(raw)) % 3 else 0
    return text[(0, 2, 3)[offset] : len(text) - mixed_end]


def hide_secret_values(text: str) -> str:
    """`text` with the secret values (FLEET_API_KEY's, `remember_secrets`) replaced, also
    encoded (`with_encoded_forms`); values under 8 characters (a placeholder like `local`) are
    left alone, as ordinary words."""
    if len(text) < 8:
        return text
    for secret in _secret_values():
        if len(secret) >= 8:
            text = text.replace(secret, REDACTED)
    return text


def redact(value: Any, secrets: Sequence[str] | None = None) -> Any:
    """A copy of a JSON-like value with secret-named fields and known secret values (also
    encoded, `with_encoded_forms`) removed."""
    forms = _secret_values() if secrets is None else tuple(secrets)
    return _redacted(value, forms, min(map(len, forms), default=0))


def _redacted(value: Any, secrets: tuple[str, ...], shortest: int) -> Any:
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and SECRET_NAME.search(k) and isinstance(v, str) and v
            else _redacted(v, secrets, shortest)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_redacted(v, secrets, shortest) for v in value]
    if isinstance(value, str):
        if len(value) >= shortest:  # most strings of a result are shorter than any secret
            for secret in secrets:
                value = value.replace(secret, REDACTED)
        if not _may_hold_bearer(value):  # a cheap look first: the regex ignores case, slowly
            return value
        return BEARER.sub(r"\1" + REDACTED, value)
    return value


LONG_TEXT = 64 * 1024
"""Characters from which text is searched for "bearer" by the `regex` module (see
`_may_hold_bearer`); shorter text is searched in its lowered copy."""


def _may_hold_bearer(text: str) -> bool:
    """Whether `text` holds "bearer" in any case. A long text (a megabyte result, redacted on
    the session writer's thread) is searched by the `regex` module, which makes no lowered copy
    and lets the event loop run meanwhile (it releases the GIL): 0.55 ms a megabyte rather
    than 0.85, none of it taken from the loop."""
    if len(text) < LONG_TEXT:
        return "bearer" in text.lower()
    return _bearer_word().search(text, concurrent=True) is not None


@functools.cache
def _bearer_word() -> Any:
    import regex  # 11 ms to import: only once a long text is redacted

    return regex.compile("bearer", regex.IGNORECASE)


# Terminal-safe text

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
# Remaining C0 control characters (keep tab and newline), including a lone ESC.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# Shown as `\uXXXX` rather than passed on raw: C1 controls (some terminals act on them) and the
# bidi controls that reorder the text after them on screen (U+202E turns `exe.txt` around).
_FORMATS = re.compile("[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")

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
    """`text` without terminal escape sequences, C0 control characters (tabs and newlines kept)
    or the API key; C1 and bidi controls and lone surrogates as `\\uXXXX`."""
    return hide_secret_values(_strip(encodable(text)))


def _strip(text: str) -> str:
    if _printable_lines(text):
        return text  # nothing to strip (lines and tabs are kept)
    return signed_formats(_CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n"))))


_PRINTABLE_ASCII_LINES = bytes(range(0x20, 0x7F)) + b"\n\t"


def _printable_lines(text: str) -> bool:
    """Whether `text` is printable but for its newlines and tabs. ASCII text is looked at as
    bytes: 10 MB in 4 ms rather than str.isprintable's 22, time a thread formatting a big
    result would hold the GIL for, the event loop waiting."""
    if text.isascii():
        return not text.encode("ascii").translate(None, _PRINTABLE_ASCII_LINES)
    return text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable()


def signed_formats(text: str) -> str:
    """`text` with C1 and bidi controls written as `\\uXXXX`: in JSON text (where they can only
    be inside strings) that is the escape a JSON reader turns back into the character."""
    return _FORMATS.sub(lambda match: _code(match.group()), text)


def hide_secrets(text: str) -> str:
    """`text` with the secrets (the API key, secret `--env` values) hidden, even where escapes
    or control characters split them (the text is then `clean`ed, losing those)."""
    hidden = hide_secret_values(text)
    bare = _strip(hidden)
    return hidden if hide_secret_values(bare) == bare else clean(hidden)


def without_secrets(value: Any) -> Any:
    """A copy of a JSON-like value with `hide_secrets` applied to every string in it."""
    if isinstance(value, str):
        return hide_secrets(value)
    if isinstance(value, dict):
        return {without_secrets(k): without_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_secrets(v) for v in value]
    return value


def visible(name: str) -> str:
    """A name (of a tool, an argument) with each character that would not show as itself
    shown as a sign rather than removed: C0 controls as control pictures (ESC as ␛), others
    (C1 controls, zero-width and bidi marks, lone surrogates) as `\\uXXXX`; so a name holding
    one never looks like an ordinary name. The API key is hidden, even split by controls (at
    the cost of the signs)."""
    name = hide_secrets(name)
    return name if name.isprintable() else "".join(map(_sign, name))


def _sign(character: str) -> str:
    if character.isprintable():
        return character
    return _PICTURES.get(ord(character)) or _code(character)


def _code(character: str) -> str:
    return f"\\u{ord(character):04x}"


# Short forms


def one_line(text: str, limit: int = 200) -> str:
    """The first line of cleaned `text`, shortened to `limit` characters."""
    return shortened(clean(text).strip().split("\n", 1)[0].replace("\t", " "), limit)


def name_line(name: str, limit: int = 200) -> str:
    """A name from the env on one line: control characters as signs (`visible`), shortened."""
    return one_line(visible(name), limit)


def flat(text: str) -> str:
    """`text` cleaned, with its lines and runs of whitespace joined by single spaces."""
    return " ".join(clean(text).split())


def shortened(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters, else its start ending in "…" at `limit`."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def elided_strings(value: Any, limit: int, within: int | None = None) -> Any:
    """`value` (parsed JSON) with each string longer than `limit` characters cut in its middle,
    its start and end kept around `…[N characters]…`: a reply of base64 pictures reads as its
    structure. A value nested too deep to walk is given back as it is. With `within`: None as
    soon as its strings alone pass that many characters, so a listing of thousands of short
    strings that could never fit is not walked to its end."""
    budget = [within] if within is not None else None
    try:
        return _elided(value, limit, budget)
    except RecursionError:
        return value
    except _OverBudget:
        return None


class _OverBudget(Exception):
    """The strings kept so far pass the budget `elided_strings` was given."""


def _elided(value: Any, limit: int, budget: list[int] | None) -> Any:
    if isinstance(value, str):
        if len(value) > limit:
            keep = max(1, limit // 2)
            value = f"{value[:keep]}…[{len(value) - 2 * keep:,} characters]…{value[-keep:]}"
        if budget is not None:
            budget[0] -= len(value)
            if budget[0] < 0:
                raise _OverBudget
        return value
    if isinstance(value, dict):
        return {key: _elided(item, limit, budget) for key, item in value.items()}
    if isinstance(value, list):
        return [_elided(item, limit, budget) for item in value]
    return value


def counted(count: int, noun: str, plural: str = "") -> str:
    """`1 tool`, `3 tools`, `0 tools` (`plural` when adding an s will not do: `entries`)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def describe_seconds(seconds: float) -> str:
    """`5 minutes`, `90s`: a wait as a person reads it."""
    if seconds >= 120 and seconds % 60 == 0:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g}s"


def pretty_json(value: Any) -> str:
    """`value` as indented JSON, non-ASCII characters as themselves, anything else as its str."""
    import json  # not loaded for `--help`

    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


# Exceptions as text: the mcp transport reports failures as (nested) ExceptionGroups from anyio
# task groups; a user wants "connection refused", not a group of one.


def leaf_errors(error: BaseException) -> list[BaseException]:
    """The non-group exceptions inside `error`, cancellations last (they are rarely the cause)."""
    if isinstance(error, BaseExceptionGroup):
        import asyncio  # loaded by whoever raised a group; not at start-up (`--help`)

        leaves = [leaf for inner in error.exceptions for leaf in leaf_errors(inner)]
        return sorted(leaves, key=lambda leaf: isinstance(leaf, asyncio.CancelledError))
    return [error]


class PlainError(Exception):
    """An error whose message is written for the user: `describe_error` says it as it is."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def describe_error(error: BaseException) -> str:
    """One line naming what went wrong, with duplicates removed."""
    lines: list[str] = []
    for leaf in leaf_errors(error):
        line = _describe_leaf(leaf)
        if line not in lines:
            lines.append(line)
    return "; ".join(lines) or type(error).__name__


def _describe_leaf(error: BaseException) -> str:
    if isinstance(error, PlainError):
        return error.message
    status = http_status(error)
    if status is not None:
        response: Any = getattr(error, "response", None)  # an HTTP status error's
        return f"HTTP {status} from {response.url}"
    if isinstance(error, TimeoutError):
        return str(error) or "timed out"
    name = type(error).__name__
    if name == "ConnectError":
        return f"cannot connect ({error})" if str(error) else "cannot connect"
    if name == "MCPError" and (message := error_message(error)):
        return message  # the mcp SDK's wrapper: its message is the whole story
    if isinstance(error, OSError) and error.strerror:
        return error_message(error)  # its reason says more than its class
    return named_error(error)


def named_error(error: BaseException) -> str:
    """`ValueError: bad input`: the error's class and message, or its class alone when it says
    nothing."""
    message = error_message(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def error_message(error: BaseException) -> str:
    """What `error` says: its `message` (the SDK's and mcp's errors carry one), an OS error's
    reason and file (not `[Errno 2] ...: '/x'`), a missing key's name (not its repr), else its
    text."""
    if message := getattr(error, "message", None):
        return message
    if isinstance(error, OSError) and error.strerror:
        return f"{error.strerror} ({error.filename})" if error.filename else error.strerror
    if isinstance(error, KeyError) and len(error.args) == 1:
        return str(error.args[0])
    return str(error)


def http_status(error: BaseException) -> int | None:
    """The HTTP status of an httpx/httpx2 HTTPStatusError, else None."""
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


_MARKDOWN_STRONG = re.compile(r"^(#{1,6} \S|```|\|.*\|\s*$|> \S)", re.MULTILINE)
_MARKDOWN_WEAK = re.compile(
    r"(^\s*[-*+] \S|^\s*\d+\. \S|\*\*\S.*?\*\*|\[[^\]]+\]\([^)]+\)|`[^`]+`)", re.M
)
MARKDOWN_SCAN = 20_000
"""Characters searched for the lighter Markdown signs."""


def looks_like_markdown(text: str) -> bool:
    """Headings, fences, tables or quotes; or at least two lighter Markdown signs."""
    if _MARKDOWN_STRONG.search(text):
        return True
    return len(_MARKDOWN_WEAK.findall(text[:MARKDOWN_SCAN])) >= 2
