"""big_json measures and writes JSON exactly as json.dumps does, without escaping long strings
a character at a time."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from fleet_tui.big_json import NODES, compact_json, compact_json_bytes, json_length

SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()


def json_values(scalars: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
        max_leaves=30,
    )


JSON_VALUES = json_values(SCALARS)
FINITE_FLOATS = st.floats(allow_nan=False, allow_infinity=False)
FINITE_JSON_VALUES = json_values(
    st.none() | st.booleans() | st.integers() | FINITE_FLOATS | st.text()
)
WITHOUT_FLOATS = json_values(st.none() | st.booleans() | st.integers() | st.text())
TEXT = 'quotes " and \\ backslashes, \n\r\t\b\f, \x00\x1b\x7f controls ' * 20_000
LONG = {"content": [{"type": "text", "text": TEXT}], "structured": {"payload": "x" * 10**6}}
MANY = [{"id": i, "tags": ["a", "é"], "when": (i, None)} for i in range(NODES)]


def nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


DEEP = nested(700)  # deeper than json_length walks (json.dumps takes it over)


def compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@given(JSON_VALUES)
def test_json_length_is_the_length_json_dumps_writes(value):
    assert json_length(value) == len(json.dumps(value, default=str))


@given(JSON_VALUES)
def test_compact_json_is_what_json_dumps_writes(value):
    assert compact_json(value) == compact(value)


def test_long_text_many_values_and_deep_nesting_come_out_as_json_dumps_writes_them():
    for value in (LONG, MANY, DEEP):
        assert json_length(value) == len(json.dumps(value, default=str))
        assert compact_json(value) == compact(value)


def test_json_length_of_what_json_writes_as_str_and_compact_json_refusing_it():
    odd = {"key": {1, 2}, "bytes": b"\x00", "nested": {3: "int key"}}
    assert json_length(odd) == len(json.dumps(odd, default=str))
    for value in (odd, [b"x"]):
        try:
            compact(value)
        except TypeError as refused:
            expected = str(refused)
        try:
            compact_json(value)
        except TypeError as refused:
            assert str(refused) == expected
        else:
            raise AssertionError("compact_json wrote what json.dumps refuses")


@given(WITHOUT_FLOATS)
def test_compact_json_bytes_is_compact_json_in_utf8(value):
    """Integers past 64 bits and lone surrogates too (orjson refuses them: compact_json writes
    them, or refuses them as json.dumps does)."""
    try:
        expected = compact(value).encode("utf-8")
    except UnicodeEncodeError:
        try:
            compact_json_bytes(value)
        except UnicodeEncodeError:
            return
        raise AssertionError("compact_json_bytes wrote a lone surrogate") from None
    assert compact_json_bytes(value) == expected


@given(FINITE_JSON_VALUES)
def test_compact_json_bytes_reads_back_as_what_compact_json_writes(value):
    """A float may be spelled otherwise (1e-7 for 1e-07): the same number."""
    try:
        expected = compact(value).encode("utf-8")
    except UnicodeEncodeError:
        return
    assert json.loads(compact_json_bytes(value)) == json.loads(expected)


def test_compact_json_bytes_of_long_text_and_many_values():
    for value in (LONG, MANY):
        assert compact_json_bytes(value) == compact(value).encode("utf-8")
