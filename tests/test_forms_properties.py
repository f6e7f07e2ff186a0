"""Property tests: build_form never raises, and matching instances round-trip without errors."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from fleet_tui.forms import build_form

NAMES = st.sampled_from(["a", "b", "c", "kind", "x_1", "Ünï", "with space"])
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.text(max_size=6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)

SCALAR_SCHEMAS = st.one_of(
    st.just({"type": "string"}),
    st.builds(
        lambda lo, extra: {"type": "string", "minLength": lo, "maxLength": lo + extra},
        st.integers(0, 3),
        st.integers(0, 5),
    ),
    st.builds(lambda lo: {"type": "integer", "minimum": lo}, st.integers(-50, 50)),
    st.just({"type": "number", "maximum": 1e6}),
    st.just({"type": "boolean"}),
    st.just({"type": "null"}),
    st.lists(JSON_SCALARS, min_size=1, max_size=4, unique_by=json.dumps).map(lambda v: {"enum": v}),
    JSON_SCALARS.map(lambda v: {"const": v}),
    st.just({}),
    st.just({"type": ["string", "null"]}),
    st.just({"type": ["integer", "string"]}),
)


def _object(children: st.SearchStrategy) -> st.SearchStrategy:
    def make(props: dict, required: list[str], closed: bool) -> dict:
        schema: dict[str, Any] = {"type": "object", "properties": props}
        schema["required"] = [k for k in required if k in props]
        if closed:
            schema["additionalProperties"] = False
        return schema

    return st.builds(
        make,
        st.dictionaries(NAMES, children, min_size=1, max_size=3),
        st.lists(NAMES, max_size=3, unique=True),
        st.booleans(),
    )


def _tagged_union(children: st.SearchStrategy) -> st.SearchStrategy:
    def make(bodies: list[dict]) -> dict:
        branches = []
        for i, body in enumerate(bodies):
            props = {"kind": {"const": f"k{i}"}, "body": body}
            branches.append({"type": "object", "properties": props, "required": ["kind"]})
        return {"oneOf": branches}

    return st.lists(children, min_size=2, max_size=3).map(make)


def _extend(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        _object(children),
        st.builds(
            lambda item, n: {"type": "array", "items": item, "maxItems": n},
            children,
            st.integers(0, 3),
        ),
        children.map(lambda s: {"anyOf": [s, {"type": "null"}]}),
        _tagged_union(children),
        children.map(lambda s: {"type": "object", "additionalProperties": s}),
        st.lists(children, min_size=2, max_size=3).map(lambda s: {"anyOf": s}),
    )


SCHEMAS = st.recursive(SCALAR_SCHEMAS, _extend, max_leaves=6)


def _tool_schema(props: dict, required: list[str], use_defs: bool) -> dict:
    """A root object schema; with `use_defs`, each property goes through $defs + $ref."""
    root: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": [k for k in required if k in props],
    }
    if use_defs:
        root["$defs"] = {f"D{i}": s for i, s in enumerate(props.values())}
        root["properties"] = {k: {"$ref": f"#/$defs/D{i}"} for i, k in enumerate(props)}
    return root


TOOL_SCHEMAS = st.builds(
    _tool_schema,
    st.dictionaries(NAMES, SCHEMAS, max_size=4),
    st.lists(NAMES, max_size=3, unique=True),
    st.booleans(),
)

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


def instances(schema: Any, root: dict) -> st.SearchStrategy:
    """Instances valid against one of the generated schemas. Leaves come from
    hypothesis-jsonschema; containers are composed here (its object generator does not run on
    the installed Hypothesis)."""
    if schema == {} or schema is True:
        return JSON
    if "$ref" in schema:
        return instances(root["$defs"][schema["$ref"].rsplit("/", 1)[1]], root)
    if "anyOf" in schema or "oneOf" in schema:
        return st.one_of([instances(b, root) for b in schema.get("anyOf") or schema["oneOf"]])
    if schema.get("type") == "array":
        return st.lists(instances(schema["items"], root), max_size=schema["maxItems"])
    if schema.get("type") == "object":
        return _object_instances(schema, root)
    return from_schema(schema)


@st.composite
def _object_instances(draw: Any, schema: dict, root: dict) -> dict:
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    out = {}
    for key, sub in props.items():
        if key in required or draw(st.booleans()):
            out[key] = draw(instances(sub, root))
    extra = schema.get("additionalProperties", True)
    if extra is not False:
        for key in draw(st.lists(st.text(max_size=4), max_size=2)):
            if key not in props:
                out[key] = draw(JSON if extra is True else instances(extra, root))
    return out


@SETTINGS
@given(st.data(), TOOL_SCHEMAS)
def test_matching_instances_round_trip_without_errors(data, schema):
    instance = data.draw(instances(schema, schema), label="instance")
    assume(Draft202012Validator(schema).is_valid(instance))  # oneOf branches may overlap
    form = build_form(schema)
    form.load(instance)
    assert form.value() == instance
    assert form.errors() == []


KEYWORDS = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "enum",
        "const",
        "required",
        "additionalProperties",
        "patternProperties",
        "prefixItems",
        "default",
        "minimum",
        "format",
        "pattern",
        "$defs",
        "discriminator",
        "not",
    ]
)
ODD_SCHEMAS = st.recursive(
    JSON_SCALARS | st.sampled_from(["#", "#/$defs/a", "object", "array", "string", "("]),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(KEYWORDS | NAMES, inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ODD_SCHEMAS, JSON)
def test_build_form_never_raises(schema, arguments):
    form = build_form(schema)
    form.value()
    form.errors()
    form.load(arguments)
    form.value()
    form.errors()
    for node in list(form.root.walk())[:200]:
        _ = (node.path, node.label, node.help, node.placeholder, node.children)
