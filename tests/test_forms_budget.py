"""The schema budget (forms/budget.py): bombs are refused, real tool schemas pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fleet_tui.forms.budget import (
    MAX_ALTERNATIVES,
    MAX_DEPTH,
    MAX_NODES,
    complexity_note,
    over_budget,
)
from tests.fixtures.schema_bombs import schema_bomb

CORPUS = sorted((Path(__file__).parent / "data" / "schemas").glob("*.json"))
TOO_MANY = f"more than {MAX_NODES:,} subschemas once $refs are followed"
TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"


def with_defs(root: dict[str, Any], **defs: Any) -> dict[str, Any]:
    return {**root, "$defs": defs}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_corpus_schema_is_within_the_budget(path: Path):
    assert over_budget(json.loads(path.read_text())["schema"]) is None


def test_a_tool_of_ten_thousand_varied_properties_is_within_the_budget():
    shapes: list[dict[str, Any]] = [
        {"type": "string", "description": "A text field"},
        {"type": "integer", "minimum": 0},
        {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "properties": {"street": {"type": "string"}}},
    ]
    properties = {f"field_{i}": shapes[i % len(shapes)] for i in range(10_000)}
    assert over_budget({"type": "object", "properties": properties}) is None


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf", "allOf"])
def test_a_bomb_is_refused_once_it_passes_the_node_budget(keyword):
    assert over_budget(schema_bomb(18, keyword)) == TOO_MANY


def test_a_deep_bomb_is_refused_by_its_depth_before_expanding_much():
    assert over_budget(schema_bomb()) == TOO_DEEP
    assert complexity_note(schema_bomb()) == f"schema too complex to validate: {TOO_DEEP}"


def test_deep_nesting_is_refused():
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_DEPTH + 1):
        schema = {"type": "object", "properties": {"a": schema}}
    assert over_budget(schema) == TOO_DEEP


def test_an_object_wider_than_the_node_budget_is_refused():
    properties = {f"p{i}": {"type": "string"} for i in range(MAX_NODES)}
    assert over_budget({"type": "object", "properties": properties}) == TOO_MANY


def test_a_combinator_with_too_many_branches_is_refused():
    branches = [{"const": i} for i in range(MAX_ALTERNATIVES + 1)]
    assert over_budget({"oneOf": branches}) == (
        f"{len(branches):,} branches in one oneOf (at most {MAX_ALTERNATIVES:,})"
    )
    assert over_budget({"oneOf": branches[:-1]}) is None


DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema"
DRAFT_4 = "http://json-schema.org/draft-04/schema#"


@pytest.mark.parametrize(
    ("dialect", "key", "name", "ref"),
    [
        (DRAFT_2020, "$anchor", "L{}", "#L{}"),
        (DRAFT_2020, "$id", "http://x.test/d/L{}", "L{}"),
        (DRAFT_4, "id", "http://x.test/d/L{}", "L{}"),
    ],
    ids=["$anchor", "$id", "draft-04 id"],
)
def test_a_bomb_through_anchors_or_ids_is_followed_and_refused(dialect, key, name, ref):
    """References resolve as jsonschema resolves them (a relative one against the `$id` of
    the subschema it is in)."""
    defs = {
        f"L{i}": {key: name.format(i), "anyOf": [{"$ref": ref.format(i + 1)}] * 2}
        for i in range(18)
    }
    defs["L18"] = {key: name.format(18), "type": "string"}
    start = {key: name.format("a"), "allOf": [{"$ref": ref.format(0)}]}
    schema = {"$schema": dialect, "definitions": defs, "properties": {"a": start}}
    assert over_budget(schema) == TOO_MANY


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        with_defs(ref("A"), A={"allOf": [ref("A")]}),
        with_defs(ref("A"), A={"anyOf": [ref("B"), {"type": "string"}]}, B={"not": ref("A")}),
    ],
    ids=["root", "allOf", "through another"],
)
def test_a_reference_cycle_that_stays_on_the_same_value_is_refused(schema):
    assert "refers back to itself on the same value" in over_budget(schema)


@pytest.mark.parametrize(
    "node",
    [
        {"properties": {"next": {"anyOf": [ref("Node"), ref("Node")]}}},
        {"properties": {"a": ref("Node")}, "patternProperties": {"^a": ref("Node")}},
        {"items": ref("Node"), "contains": ref("Node")},
        {"properties": {"x": {"anyOf": [ref("Node"), {"properties": {"x": ref("Node")}}]}}},
        {
            "properties": {
                "a": ref("Node"),
                "b": {"anyOf": [ref("Node"), {"properties": {"a": ref("Node")}}]},
            },
            "patternProperties": {"^b": {"properties": {"a": ref("Node")}}},
        },
    ],
    ids=["anyOf", "pattern", "items", "x and x/x", "a, b and b/a and a/b"],
)
def test_a_recursion_that_reaches_one_value_by_two_routes_is_refused(node):
    """Each such schema doubles (or grows like Fibonacci) the routes with each level."""
    assert "can reach one value by two routes" in over_budget(with_defs(ref("Node"), Node=node))


@pytest.mark.parametrize(
    "schema",
    [
        with_defs(
            {"type": "object", "properties": {"root": ref("Node")}},
            Node={
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "next": {"anyOf": [ref("Node"), {"type": "null"}]},
                },
            },
        ),
        with_defs(
            ref("Expr"),
            Expr={
                "anyOf": [
                    {"type": "number"},
                    {"properties": {"left": ref("Expr"), "right": ref("Expr")}},
                ]
            },
        ),
        {
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#"}},
                {"type": "object", "additionalProperties": {"$ref": "#"}},
            ]
        },
        with_defs(
            ref("Node"),
            Node={
                "properties": {
                    "child": {"anyOf": [ref("Node"), {"properties": {"wrapped": ref("Node")}}]}
                }
            },
        ),
    ],
    ids=["linked list", "binary tree", "json value", "child and child/wrapped"],
)
def test_recursive_schemas_that_go_into_the_value_are_within_the_budget(schema):
    assert over_budget(schema) is None


@pytest.mark.parametrize(
    "schema",
    [
        True,
        {"type": "object", "properties": {"a": {"$ref": "#/nowhere"}}},
        {"properties": {"a": {"$ref": "https://example.com/elsewhere.json"}}},
        {"allOf": 5, "items": [1], "properties": []},
    ],
)
def test_schemas_of_odd_shapes_are_within_the_budget(schema):
    assert over_budget(schema) is None
