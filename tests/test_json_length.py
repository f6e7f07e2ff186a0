"""json_length measures a value's JSON (as json.dumps writes it) without writing long strings."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from fleet_tui.text import JSON_LENGTH_NODES, json_length

SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(JSON_VALUES)
def test_json_length_is_the_length_json_dumps_writes(value):
    assert json_length(value) == len(json.dumps(value, default=str))


def test_json_length_counts_every_escape_in_long_ascii_text():
    text = 'quotes " and \\ backslashes, \n\r\t\b\f, \x00\x1b\x7f controls ' * 20_000
    value = {"content": [{"type": "text", "text": text}], "structured": {"payload": text}}
    assert json_length(value) == len(json.dumps(value, default=str))


def test_json_length_of_many_small_values_and_of_what_json_writes_as_str():
    many = [{"id": i, "tags": ["a", "é"], "when": (i, None)} for i in range(JSON_LENGTH_NODES)]
    assert json_length(many) == len(json.dumps(many, default=str))
    odd = {"key": {1, 2}, "bytes": b"\x00", "nested": {3: "int key"}}
    assert json_length(odd) == len(json.dumps(odd, default=str))
