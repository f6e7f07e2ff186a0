"""JSON of values holding long strings (a megabyte result), measured and written quickly.

json.dumps escapes a string a character at a time. Here a long string is measured as orjson
writes it, or written in two whole-string passes (`str.encode`, `bytes.translate` keeping only
what JSON escapes) and one `str.replace` per escaped character it holds (usually none); for a
file, `compact_json_bytes` has orjson write the whole value, quicker still. Past NODES values,
or nested very deep, the value goes to json.dumps instead (quicker on many small values).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

NODES = 1000
"""Values walked in Python before the whole value goes to json.dumps instead."""

_WRITTEN_AS_IS = bytes(c for c in range(0x20, 0x100) if c not in b'"\\')
"""UTF-8 bytes json.dumps(ensure_ascii=False) leaves alone (DEL and non-ASCII too)."""
_ESCAPE = {code: json.dumps(chr(code))[1:-1] for code in (*range(0x20), *b'"\\')}
"""How json.dumps writes each character it escapes (\\", \\n, \\u001b)."""


class _TooManyValues(Exception):
    pass


def json_length(value: Any) -> int:
    """`len(json.dumps(value, default=str))`."""
    return _within_budget(_length, value, lambda: len(json.dumps(value, default=str)))


def compact_json(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, separators=(",", ":"))`."""
    return _within_budget(_compact, value, lambda: _dumps_compact(value))


def compact_json_bytes(value: Any) -> bytes:
    """`compact_json(value)` as UTF-8, for a JSON value (what `model_dump(mode="json")` gives),
    written by orjson: a megabyte string in 0.03 ms rather than 2 ms. A float may be spelled
    otherwise (`1e-7` for `1e-07`: the same number); NaN and infinity are null (as model_dump
    writes them). A value orjson refuses (an integer past 64 bits, a key not a string) goes to
    `compact_json`; a lone surrogate is refused there too, as before (UnicodeEncodeError)."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return compact_json(value).encode("utf-8")


def _within_budget(
    walk: Callable[[Any, list[int]], Any], value: Any, fallback: Callable[[], Any]
) -> Any:
    try:
        return walk(value, [NODES])
    except (_TooManyValues, RecursionError):  # deep nesting too: the C encoder goes deeper
        return fallback()


def _spend(budget: list[int]) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooManyValues


def _string_keyed(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(key, str) for key in value)


def _length(value: Any, budget: list[int]) -> int:
    _spend(budget)
    if isinstance(value, str):
        return _string_length(value)
    if _string_keyed(value):
        lengths = [_string_length(k) + 2 + _length(v, budget) for k, v in value.items()]
    elif isinstance(value, list | tuple):
        lengths = [_length(item, budget) for item in value]
    else:
        return len(json.dumps(value, default=str))
    return 2 + sum(lengths) + 2 * max(len(lengths) - 1, 0)


def _string_length(text: str) -> int:
    """ASCII text is measured as orjson writes it (a megabyte in 0.03 ms): with json.dumps's
    escapes but DEL's, which json.dumps writes as \\u007f."""
    if text.isascii():
        dels = text.count("\x7f") if "\x7f" in text else 0  # `in` is quicker than counting
        return len(orjson.dumps(text)) + 5 * dels
    return len(json.dumps(text))


def _compact(value: Any, budget: list[int]) -> str:
    parts: list[str] = []
    _write(value, parts, budget)
    return "".join(parts)


def _write(value: Any, parts: list[str], budget: list[int]) -> None:
    """Append `value`'s compact JSON to `parts` (copying long strings once, at the join)."""
    _spend(budget)
    if isinstance(value, str):
        parts += ('"', _escaped(value), '"')
    elif _string_keyed(value):
        parts.append("{")
        for index, (key, item) in enumerate(value.items()):
            parts += ("," if index else "", '"', _escaped(key), '":')
            _write(item, parts, budget)
        parts.append("}")
    elif isinstance(value, list | tuple):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts, budget)
        parts.append("]")
    else:
        parts.append(_dumps_compact(value))


def _escaped(text: str) -> str:
    """`text` as json.dumps(ensure_ascii=False) writes it between the quotes: one pass
    (str.replace) for each character to escape that it holds, usually none."""
    found = text.encode("utf-8", "surrogatepass").translate(None, _WRITTEN_AS_IS)
    for code in sorted(set(found), key=lambda code: code != ord("\\")):  # backslashes first
        text = text.replace(chr(code), _ESCAPE[code])
    return text


def _dumps_compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
