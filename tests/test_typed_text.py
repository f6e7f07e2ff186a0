"""`-a key=value` text read by the type the schema declares (forms/typed_text.py)."""

from __future__ import annotations

from typing import Any

from fleet_tui.forms.typed_text import schema_errors, typed_arguments
from fleet_tui.forms.validation import FieldError

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "message": {"type": "string"},
        "count": {"type": "integer"},
        "ratio": {"type": "number"},
        "loud": {"type": "boolean"},
        "colour": {"enum": ["red", "green", 3]},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "object", "properties": {"deep": {"type": "boolean"}}},
    },
    "required": ["message"],
}


def read(**pairs: str) -> tuple[dict[str, Any], list[FieldError]]:
    return typed_arguments(SCHEMA, list(pairs.items()))


def test_a_string_stays_a_string_even_when_it_looks_like_json() -> None:
    assert read(message="123", note="null") == ({"message": "123", "note": "null"}, [])
    assert read(message='{"a": 1}')[0] == {"message": '{"a": 1}'}


def test_numbers_booleans_and_json_are_parsed_for_their_types() -> None:
    arguments, problems = read(
        count="42", ratio="0.5", loud="true", tags='["a","b"]', options='{"deep": false}'
    )
    assert problems == []
    assert arguments == {
        "count": 42,
        "ratio": 0.5,
        "loud": True,
        "tags": ["a", "b"],
        "options": {"deep": False},
    }


def test_enums_match_their_options_as_typed() -> None:
    assert read(colour="green")[0] == {"colour": "green"}
    assert read(colour="3")[0] == {"colour": 3}


def test_nullable_and_union_types() -> None:
    assert read(limit="null", either="7")[0] == {"limit": None, "either": 7}
    assert read(limit="5", either="seven")[0] == {"limit": 5, "either": "seven"}


def test_unreadable_values_are_errors_worded_as_the_form_words_them() -> None:
    _, problems = read(count="many", ratio="1e", loud="perhaps", tags="a,b")
    assert [(p.path, p.message.split(":")[0]) for p in problems] == [
        (("count",), "not an integer"),
        (("ratio",), "not a number"),
        (("loud",), "not a boolean (true or false)"),
        (("tags",), "invalid JSON"),
    ]


def test_keys_the_schema_does_not_list_are_read_as_json_when_they_parse() -> None:
    assert read(other="5", name="x y")[0] == {"other": 5, "name": "x y"}


def test_schema_errors_name_missing_required_fields_and_bad_enum_values() -> None:
    errors = schema_errors(SCHEMA, {"colour": "blue"})
    assert FieldError(("message",), "required") in errors
    assert any(e.path == ("colour",) and "is not one of" in e.message for e in errors)
    assert schema_errors(SCHEMA, {"message": "hi"}) == []


def test_a_parameter_with_no_declared_type_takes_the_text_as_a_string() -> None:
    schema = {"type": "object", "properties": {"any": {}, "titled": {"title": "Titled"}}}
    pairs = [("any", "hello"), ("titled", '{"a": 1}')]
    assert typed_arguments(schema, pairs) == ({"any": "hello", "titled": '{"a": 1}'}, [])


def test_a_boolean_or_string_reads_a_boolean_only_from_exactly_true_or_false() -> None:
    schema = {"type": "object", "properties": {"flag": {"type": ["boolean", "string"]}}}
    for text, value in (("yes", "yes"), ("on", "on"), ("1", "1"), ("True", "True")):
        assert typed_arguments(schema, [("flag", text)])[0] == {"flag": value}
    assert typed_arguments(schema, [("flag", "false")])[0] == {"flag": False}
    assert read(loud="yes")[0] == {"loud": True}  # a plain boolean still takes the words
