"""The form model, feature by feature (each schema feature the forms promise to support)."""

from __future__ import annotations

from typing import Any

import pytest

from fleet_tui.forms import (
    ArrayNode,
    ConstNode,
    EnumNode,
    FieldError,
    MapNode,
    ObjectNode,
    RawNode,
    ScalarNode,
    UnionNode,
    build_form,
)
from tests.fixtures.schema_bombs import schema_bomb


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict:
    return {"type": "object", "properties": properties, "required": required or [], **extra}


def node(schema: dict, *path: str | int):
    return build_form(schema).node_at(path)


def error_paths(form) -> list[tuple]:
    return [e.path for e in form.errors()]


# -- types -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["string", "integer", "number", "boolean"])
def test_scalar_types_become_scalar_fields(kind):
    field = node(obj({"x": {"type": kind}}), "x")
    assert isinstance(field, ScalarNode) and field.kind == kind


def test_null_type_is_a_const_null():
    field = node(obj({"x": {"type": "null"}}), "x")
    assert isinstance(field, ConstNode) and field.const is None


def test_type_list_with_null_is_a_nullable_field():
    form = build_form(obj({"x": {"type": ["string", "null"]}}))
    field = form.node_at(("x",))
    assert isinstance(field, ScalarNode) and field.kind == "string" and field.nullable
    field.set_null()
    assert form.value() == {"x": None}
    assert form.errors() == []


def test_type_list_of_several_types_is_a_union_that_keeps_each_type():
    form = build_form(obj({"x": {"type": ["string", "integer"]}}))
    assert isinstance(form.node_at(("x",)), ScalarNode)  # the active branch
    for value in ("7", 7):
        form.load({"x": value})
        assert form.value() == {"x": value}
        assert form.errors() == []


# -- enum, const, unions -----------------------------------------------------------------------


def test_enum_is_a_choice_and_nullable_when_null_is_allowed():
    field = node(obj({"x": {"enum": ["a", "b", None]}}), "x")
    assert isinstance(field, EnumNode) and field.options == ["a", "b"] and field.nullable


def test_enum_keeps_value_types_apart():
    form = build_form(obj({"x": {"enum": [1, "1", True]}}))
    for value in (1, "1", True):
        form.load({"x": value})
        assert form.value() == {"x": value} and type(form.value()["x"]) is type(value)


def test_const_is_always_sent():
    form = build_form(obj({"kind": {"const": "circle"}, "r": {"type": "number"}}, ["r"]))
    assert form.value() == {"kind": "circle"}


def test_anyof_with_null_is_an_optional_field_with_a_null_state():
    schema = obj({"x": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None}})
    form = build_form(schema)
    field = form.node_at(("x",))
    assert isinstance(field, ScalarNode) and field.kind == "integer" and field.nullable
    assert form.value() == {}  # a null default is the same as leaving it out
    field.set_null()
    assert form.value() == {"x": None}
    field.clear()
    assert form.value() == {}


def test_union_of_consts_is_a_choice():
    schema = obj({"x": {"oneOf": [{"const": "a", "title": "A"}, {"const": "b"}]}})
    field = node(schema, "x")
    assert isinstance(field, EnumNode) and field.options == ["a", "b"]
    assert field.option_labels == ["a (A)", "b"]


CAT = obj({"kind": {"const": "cat"}, "lives": {"type": "integer"}}, ["kind"])
DOG = obj({"kind": {"const": "dog"}, "lives": {"type": "integer"}}, ["kind"])


def test_union_of_objects_picks_the_branch_by_its_const_discriminator():
    form = build_form(obj({"pet": {"oneOf": [CAT, DOG]}}, ["pet"]))
    form.load({"pet": {"kind": "dog", "lives": 1}})
    union = form.field_at(("pet",))
    assert isinstance(union, UnionNode)
    assert union.discriminator == "kind" and union.branch_labels == ["cat", "dog"]
    assert union.active == 1
    assert form.value() == {"pet": {"kind": "dog", "lives": 1}}


def test_selecting_a_branch_sends_its_discriminator_and_keeps_earlier_input():
    form = build_form(obj({"pet": {"oneOf": [CAT, DOG]}}, ["pet"]))
    union = form.field_at(("pet",))
    union.branch_node().child("lives").set(3)
    union.select(1)
    assert form.value() == {"pet": {"kind": "dog"}}
    union.select(0)
    assert form.value() == {"pet": {"kind": "cat", "lives": 3}}


def test_union_error_is_reported_inside_the_active_branch():
    form = build_form(obj({"pet": {"oneOf": [CAT, DOG]}}, ["pet"]))
    form.load({"pet": {"kind": "dog", "lives": "many"}})
    assert error_paths(form) == [("pet", "lives")]


def test_union_without_discriminator_picks_the_branch_that_validates():
    schema = obj(
        {
            "v": {
                "anyOf": [
                    obj({"a": {"type": "string"}}, ["a"]),
                    obj({"b": {"type": "integer"}}, ["b"]),
                ]
            }
        }
    )
    form = build_form(schema)
    form.load({"v": {"b": 2}})
    assert form.field_at(("v",)).active == 1
    assert form.value() == {"v": {"b": 2}} and form.errors() == []


def test_allof_is_merged():
    schema = {
        "allOf": [obj({"a": {"type": "string"}}, ["a"]), obj({"b": {"type": "integer"}}, ["b"])],
    }
    form = build_form(schema)
    assert [c.key for c in form.root.children] == ["a", "b"]
    assert set(error_paths(form)) == {("a",), ("b",)}


# -- references ------------------------------------------------------------------------------


def test_refs_into_defs_and_definitions_are_followed():
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/definitions/B"}},
        "$defs": {"A": {"type": "integer"}},
        "definitions": {"B": {"enum": ["x", "y"]}},
    }
    form = build_form(schema)
    assert isinstance(form.node_at(("a",)), ScalarNode)
    assert isinstance(form.node_at(("b",)), EnumNode)


RECURSIVE = {
    "type": "object",
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
            },
        }
    },
}


def test_recursive_models_are_built_lazily_and_load_deep_values():
    form = build_form(RECURSIVE)
    deep: Any = None
    for i in range(30):
        deep = {"name": str(i), "next": deep}
    form.load({"root": deep})
    assert form.value() == {"root": deep}
    assert form.errors() == []


def test_recursive_expansion_is_bounded():
    form = build_form(RECURSIVE)
    kinds = [n.kind for n in form.root.walk()]  # walking builds every level: it must stop
    assert kinds[-1] == "raw"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("keyword", ["anyOf", "allOf"])
def test_a_schema_bomb_is_one_raw_field_never_expanded_nor_validated(keyword):
    form = build_form(schema_bomb(keyword=keyword))
    assert form.too_complex == "schema too complex to validate: nested deeper than 64 levels"
    assert form.schema_problem == form.too_complex
    assert isinstance(form.root, RawNode)
    form.load({"value": 5})  # the bottom wants a string: a validator would try 2^40 branches
    assert form.value() == {"value": 5}
    assert form.errors() == []


SLOW_PATTERN = "^(a|aa)+$"
"""Python's `re` backtracks for minutes on 40 `a`s and a `b` (it doubles with each `a`)."""


@pytest.mark.timeout(30)
def test_a_pattern_that_backtracks_without_end_is_stopped_and_said():
    form = build_form(
        {
            "type": "object",
            "properties": {"text": {"type": "string", "pattern": SLOW_PATTERN}},
            "patternProperties": {SLOW_PATTERN: {"type": "integer"}},
        }
    )
    typed = "a" * 40 + "b"
    form.load({"text": typed, typed: 1})
    assert {(e.path, e.message) for e in form.errors()} == {
        (("text",), "pattern '^(a|aa)+$' took over 0.1 s to match, not checked"),
        ((), f"key '{typed}': pattern '^(a|aa)+$' took over 0.1 s to match, not checked"),
    }
    form.load({"text": "aaa"})
    assert form.errors() == []


@pytest.mark.timeout(30)
def test_a_remote_ref_is_never_fetched(silent_url):
    form = build_form(obj({"a": {"$ref": silent_url}}))
    form.load({"a": 1})
    assert form.errors() == []
    assert "schema cannot be used for validation" in form.schema_problem


def test_unresolvable_ref_becomes_raw_for_that_field_only():
    form = build_form(obj({"a": {"$ref": "#/$defs/Missing"}, "b": {"type": "string"}}))
    assert isinstance(form.node_at(("a",)), RawNode)
    assert isinstance(form.node_at(("b",)), ScalarNode)


# -- arrays and maps ---------------------------------------------------------------------------


def test_array_add_remove_move_and_bounds():
    form = build_form(
        obj(
            {"xs": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3}},
            ["xs"],
        )
    )
    xs = form.node_at(("xs",))
    assert isinstance(xs, ArrayNode)
    assert form.value() == {"xs": []} and error_paths(form) == [("xs",)]
    for v in (1, 2, 3):
        xs.add().set(v)
    assert not xs.can_add and xs.can_remove
    xs.move(2, 0)
    assert form.value() == {"xs": [3, 1, 2]}
    assert [i.path for i in xs.items] == [("xs", 0), ("xs", 1), ("xs", 2)]
    xs.remove(1)
    assert form.value() == {"xs": [3, 2]} and form.errors() == []


def test_array_of_objects_errors_point_at_the_item_field():
    schema = obj({"xs": {"type": "array", "items": obj({"n": {"type": "integer"}}, ["n"])}})
    form = build_form(schema)
    form.node_at(("xs",)).add()
    assert error_paths(form) == [("xs", 0, "n")]


def test_additional_properties_become_a_key_value_editor():
    form = build_form(obj({"env": {"type": "object", "additionalProperties": {"type": "string"}}}))
    env = form.node_at(("env",))
    assert isinstance(env, ObjectNode) and isinstance(env.extras, MapNode)
    env.extras.add("HOME").set("/root")
    entry = env.extras.add("N", 5)
    assert form.value() == {"env": {"HOME": "/root", "N": 5}}
    assert error_paths(form) == [("env", "N")]
    env.extras.rename(entry, "USER")
    assert list(form.value()["env"]) == ["HOME", "USER"]


def test_pattern_properties_choose_the_value_schema_by_key():
    schema = obj(
        {
            "m": {
                "type": "object",
                "patternProperties": {"^n_": {"type": "integer"}, "^s": {"type": "string"}},
            }
        }
    )
    form = build_form(schema)
    form.load({"m": {"n_a": 1, "s": "x"}})
    extras = form.node_at(("m",)).extras
    assert [e.kind for e in extras.entries] == ["integer", "string"]
    assert form.value() == {"m": {"n_a": 1, "s": "x"}} and form.errors() == []


def test_unknown_keys_are_kept_and_reported_when_not_allowed():
    form = build_form(obj({"a": {"type": "string"}}, additionalProperties=False))
    form.load({"a": "x", "zz": 1})
    assert form.value() == {"a": "x", "zz": 1}
    assert error_paths(form) == [("zz",)]


# -- annotations -----------------------------------------------------------------------------


def test_defaults_prefill_and_untouched_optional_fields_are_omitted():
    schema = obj(
        {"a": {"type": "integer", "default": 5}, "b": {"type": "string"}, "c": {"type": "boolean"}}
    )
    form = build_form(schema)
    assert form.value() == {"a": 5}


def test_annotations_reach_the_node():
    schema = obj(
        {
            "x": {
                "type": "string",
                "title": "The X",
                "description": "What x is",
                "examples": ["ex"],
                "readOnly": True,
            }
        },
        ["x"],
    )
    x = node(schema, "x")
    assert (x.label, x.title, x.help, x.placeholder) == ("x", "The X", "What x is", "ex")
    assert x.required and x.read_only


def test_format_hint_is_the_placeholder_without_examples():
    assert node(obj({"d": {"type": "string", "format": "date"}}), "d").placeholder == "YYYY-MM-DD"


# -- constraints and formats -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "good", "bad"),
    [
        ({"type": "integer", "minimum": 1, "maximum": 3}, 3, 4),
        ({"type": "number", "exclusiveMinimum": 0}, 0.5, 0),
        ({"type": "number", "exclusiveMaximum": 1}, 0.5, 1),
        ({"type": "integer", "multipleOf": 5}, 10, 12),
        ({"type": "string", "minLength": 2, "maxLength": 3}, "ab", "abcd"),
        ({"type": "string", "pattern": "^[a-z]+$"}, "abc", "ABC"),
        ({"type": "string", "format": "date"}, "2026-11-22", "2026-02-30"),
        ({"type": "string", "format": "date-time"}, "2026-11-22T10:00:00+01:00", "2026-11-22 noon"),
        ({"type": "string", "format": "email"}, "a@b.io", "nobody"),
        ({"type": "string", "format": "uri"}, "https://x.io/a?b=1", "not a uri"),
        ({"type": "string", "format": "uuid"}, "0b9e4a4e-6f0e-4b8e-9a3a-1c2d3e4f5a6b", "0b9e"),
    ],
)
def test_constraints_and_formats_are_checked(schema, good, bad):
    form = build_form(obj({"x": schema}))
    form.load({"x": good})
    assert form.errors() == []
    form.load({"x": bad})
    assert error_paths(form) == [("x",)]


def test_draft_follows_dollar_schema():
    # In draft 4, exclusiveMaximum is a boolean modifier of maximum.
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        **obj({"x": {"type": "number", "maximum": 3, "exclusiveMaximum": True}}),
    }
    form = build_form(schema)
    form.load({"x": 3})
    assert error_paths(form) == [("x",)]


# -- values ------------------------------------------------------------------------------------


def test_typed_numbers_stay_numbers_and_strings_stay_strings():
    form = build_form(
        obj({"n": {"type": "number"}, "i": {"type": "integer"}, "s": {"type": "string"}})
    )
    form.node_at(("n",)).set_text("2.50")
    form.node_at(("i",)).set_text("42")
    form.node_at(("s",)).set_text("42")
    assert form.value() == {"n": 2.5, "i": 42, "s": "42"}
    assert type(form.value()["i"]) is int and type(form.value()["s"]) is str


def test_text_that_is_not_a_number_is_an_input_error_at_its_field():
    form = build_form(obj({"i": {"type": "integer"}}))
    form.node_at(("i",)).set_text("4x")
    assert [(e.path, e.message) for e in form.errors()] == [(("i",), "not an integer")]


def test_an_integer_too_long_to_convert_is_an_input_error_at_its_field():
    form = build_form(obj({"i": {"type": "integer"}}))
    form.node_at(("i",)).set_text("1" * 5000)  # Python's int() refuses past 4,300 digits
    assert [(e.path, e.message) for e in form.errors()] == [
        (("i",), "5,000 digits is too long for a number (at most 4,300)")
    ]


def test_loaded_value_of_the_wrong_type_is_kept_as_raw_json():
    form = build_form(obj({"i": {"type": "integer"}}))
    form.load({"i": "seven"})
    assert isinstance(form.node_at(("i",)), RawNode)
    assert form.value() == {"i": "seven"}
    assert error_paths(form) == [("i",)]


def test_null_and_absent_are_distinct():
    form = build_form(obj({"x": {"type": ["integer", "null"]}}))
    form.load({"x": None})
    assert form.value() == {"x": None}
    form.load({})
    assert form.value() == {}


# -- raw fallback and robustness ---------------------------------------------------------------


@pytest.mark.parametrize(
    "sub", [{}, True, {"type": "array", "prefixItems": [{"type": "string"}]}, {"type": "object"}]
)
def test_free_form_or_unsupported_subtrees_are_raw_json_only_there(sub):
    form = build_form(obj({"raw": sub, "n": {"type": "integer"}}))
    raw = form.node_at(("raw",))
    assert isinstance(raw, RawNode)
    assert isinstance(form.node_at(("n",)), ScalarNode)
    raw.set_text('{"a": [1, null]}')
    assert form.value()["raw"] == {"a": [1, None]}


def test_raw_field_reports_invalid_json():
    form = build_form(obj({"raw": {}}))
    raw = form.node_at(("raw",))
    raw.set_text("{nope")
    assert raw.text == "{nope"
    assert [e.path for e in form.errors()] == [("raw",)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "invalid JSON: Expecting value at line 1 column 1"),
        ("NaN", "invalid JSON: NaN is not a JSON value"),
        ("[1, -Infinity]", "invalid JSON: -Infinity is not a JSON value"),
        ("[" * 100_000, "invalid JSON: nested too deeply"),
        ("[1e999]", "invalid JSON: 1e999 is too large for a number"),
        ("1" * 5000, "invalid JSON: 5,000 digits is too long for a number (at most 4,300)"),
    ],
    ids=["word", "nan", "infinity", "deep", "huge-float", "long-integer"],
)
def test_raw_field_refuses_what_is_not_json_in_plain_words(text, message):
    form = build_form(obj({"raw": {}}))
    raw = form.node_at(("raw",))
    raw.set_text(text)  # Python's parser takes NaN and fails on deep nesting with RecursionError
    assert raw.text == text
    assert form.input_errors() == [FieldError(("raw",), message)]
    assert "raw" not in form.value()


def test_an_enum_too_long_to_list_is_typed_as_json_and_still_checked():
    values = [f"v{i}" for i in range(200_000)]
    form = build_form(obj({"few": {"enum": values[:1000]}, "many": {"enum": values}}))
    assert isinstance(form.node_at(("few",)), EnumNode)
    many = form.node_at(("many",))
    assert isinstance(many, RawNode) and many.reason == "200,000 choices"
    many.set_text('"v199999"')
    assert form.value() == {"many": "v199999"} and form.errors() == []
    many.set_text('"nope"')
    assert [e.path for e in form.errors()] == [("many",)]


def test_unknown_keywords_are_ignored():
    form = build_form(obj({"x": {"type": "string", "x-widget": "fancy", "nonsense": [1]}}))
    assert isinstance(form.node_at(("x",)), ScalarNode)


@pytest.mark.parametrize(
    "schema",
    [
        True,
        False,
        None,
        3,
        "x",
        [],
        {"type": 5},
        {"properties": []},
        {"$ref": "#/nowhere"},
        {"allOf": "x"},
        {"oneOf": []},
        {"type": "object", "properties": {"a": {"pattern": "("}}},
        {"type": "object", "required": "a"},
        {"items": [1]},
        {"$ref": "#"},
    ],
)
def test_build_form_never_raises(schema):
    form = build_form(schema)
    form.load({"a": 1})
    form.value()
    form.errors()


def test_editing_inside_a_null_object_makes_it_an_object_again():
    schema = obj({"o": {"anyOf": [obj({"a": {"type": "string"}}), {"type": "null"}]}})
    form = build_form(schema)
    o = form.node_at(("o",))
    o.set_null()
    assert form.value() == {"o": None}
    o.child("a").set("x")
    assert form.value() == {"o": {"a": "x"}}


def test_loading_a_nested_field_makes_its_ancestors_present():
    form = build_form(obj({"o": obj({"xs": {"type": "array", "items": {"type": "integer"}}})}))
    form.node_at(("o", "xs")).load([1, 2])
    assert form.value() == {"o": {"xs": [1, 2]}}


def test_clearing_a_nested_object_leaves_its_parent_alone():
    inner = {"type": "object", "additionalProperties": {"type": "string"}}
    form = build_form(obj({"o": obj({"m": inner})}))
    m = form.node_at(("o", "m"))
    m.extras.add("k", "v")
    assert form.value() == {"o": {"m": {"k": "v"}}}
    form.node_at(("o",)).clear()
    assert form.value() == {}
    m.clear()
    assert form.value() == {}


def test_strings_a_text_box_cannot_hold_are_edited_as_json():
    form = build_form(obj({"s": {"type": "string"}}))
    form.load({"s": "two\nlines \x1b[31m"})
    field = form.node_at(("s",))
    assert isinstance(field, RawNode) and field.text == '"two\\nlines \\u001b[31m"'
    assert form.value() == {"s": "two\nlines \x1b[31m"} and form.errors() == []


def test_union_branch_labels_come_from_tags_titles_consts_and_types():
    schema = obj(
        {
            "v": {
                "anyOf": [
                    {"const": "auto"},
                    {"type": "integer"},
                    obj({"a": {"type": "string"}}, title="Custom"),
                ]
            }
        }
    )
    union = build_form(schema).field_at(("v",))
    assert union.branch_labels == ["auto", "integer", "Custom"]
