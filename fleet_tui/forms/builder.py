"""Turn one (sub)schema into the form node that edits it.

The builder decides the kind of field: scalars, enums, consts, objects, arrays, unions, and raw
JSON for whatever it cannot draw (`{}`, `true`, tuples, unresolvable references, ...). Nullable
shapes (`["X", "null"]`, `anyOf: [X, {"type": "null"}]`) become the X field with a null state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fleet_tui.forms.container_nodes import ArrayNode, ObjectNode, UnionNode
from fleet_tui.forms.leaf_nodes import ConstNode, EnumNode, RawNode, ScalarNode
from fleet_tui.forms.node import Node
from fleet_tui.forms.schema import UNRESOLVED, Schema, SchemaContext, merge_schemas

MAX_DEPTH = 48
"""Fields nested deeper than this (a recursive model expanded this far) become raw JSON."""

MAX_CHOICES = 1_000
"""An enum with more values than this is typed as raw JSON: a list of them is of no use, and
building one of 20,000 took the app 1.7 s each time the field was focused (the enum check
still applies)."""

SCALAR_TYPES = ("string", "integer", "number", "boolean")
ANNOTATIONS = ("title", "description", "default", "examples", "readOnly", "deprecated")
_JSON_TYPES = {"string", "integer", "number", "boolean", "null", "object", "array"}


class NodeBuilder:
    """Builds nodes for one root schema; containers call back into it to build children."""

    def __init__(self, ctx: SchemaContext, matches: Callable[[Schema, Any], bool]) -> None:
        self.ctx = ctx
        self.matches = matches

    def root(self, schema: Schema) -> Node:
        resolved = self.ctx.resolve(schema)
        if isinstance(resolved, dict) and _object_like(resolved) and not _union_of(resolved):
            return ObjectNode(self, resolved, None, None, True, is_root=True)
        node = self(schema, None, None, True)
        node.start_fresh()
        return node

    def __call__(self, schema: Any, parent: Node | None, key: Any, required: bool) -> Node:
        resolved = self.ctx.resolve(schema)
        if parent is not None and parent.depth >= MAX_DEPTH:
            return RawNode(self, resolved, parent, key, required, reason="nested too deep")
        return self._build(resolved, parent, key, required)

    def _build(self, schema: Schema, parent: Node | None, key: Any, required: bool) -> Node:
        args = (self, schema, parent, key, required)
        if not isinstance(schema, dict) or not schema or UNRESOLVED in schema:
            reason = schema.get(UNRESOLVED, "any") if isinstance(schema, dict) else "any"
            return RawNode(*args, reason=reason)
        if "const" in schema:
            return ConstNode(*args, const=schema["const"])
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            return self._enum(schema, parent, key, required, enum)
        union = _union_of(schema)
        if union is not None:
            return self._union(schema, parent, key, required, union)
        types, nullable = _types(schema)
        if len(types) > 1:
            branches = [{**schema, "type": t} for t in types]
            node = self._union(schema, parent, key, required, branches, type_union=True)
        elif not types:
            node = (
                ConstNode(*args, const=None)
                if nullable
                else RawNode(*args, reason="no type" if _typeless(schema) else "any")
            )
        else:
            node = self._typed(schema, parent, key, required, types[0])
        node.nullable = node.nullable or nullable
        return node

    def _typed(self, schema: dict, parent: Node | None, key: Any, required: bool, kind: str):
        args = (self, schema, parent, key, required)
        if kind in SCALAR_TYPES:
            return ScalarNode(*args, kind=kind)
        if kind == "object":
            if schema.get("properties") or _has_extras_schema(schema):
                return ObjectNode(*args)
            return RawNode(*args, reason="free-form object")
        if kind == "array":
            items = schema.get("items", True)
            if "prefixItems" in schema or not isinstance(items, dict | bool):
                return RawNode(*args, reason="tuple")
            return ArrayNode(*args, items_schema=items)
        return RawNode(*args, reason=f"unknown type {kind!r}")

    def _enum(self, schema: dict, parent: Node | None, key: Any, required: bool, options: list):
        args = (self, schema, parent, key, required)
        values = [o for o in options if o is not None]
        if len(values) == 1 and len(options) == 1:
            return ConstNode(*args, const=values[0])
        if not values:
            return ConstNode(*args, const=None)
        if len(values) > MAX_CHOICES:
            return RawNode(*args, reason=f"{len(values):,} choices")
        node = EnumNode(*args, options=values, labels=[_option_label(v) for v in values])
        node.nullable = len(values) < len(options) or _types(schema)[1]
        return node

    def _union(
        self,
        schema: dict,
        parent: Node | None,
        key: Any,
        required: bool,
        branches: list,
        type_union: bool = False,
    ) -> Node:
        keyword = None if type_union else ("oneOf" if "oneOf" in schema else "anyOf")
        base = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf", "discriminator")}
        notes = {k: base[k] for k in ANNOTATIONS if k in base}
        resolved = []
        nullable = False
        for index, branch in enumerate(branches):
            one = self.ctx.resolve(branch) if keyword else branch
            if keyword:
                one = _merge_base(base, one)
            if _is_null_schema(one):
                nullable = True
            else:
                resolved.append((index, one))
        args = (self, schema, parent, key, required)
        if not resolved:
            return ConstNode(*args, const=None)
        if len(resolved) == 1:
            index, only = resolved[0]
            node = self._build({**only, **notes} if isinstance(only, dict) else only, *args[2:])
            node.nullable = node.nullable or nullable
            node.branch_index = index if keyword else None
            return node
        consts = [_single_value(s) for _, s in resolved]
        if all(c is not _NO_VALUE for c in consts):
            labels = [_const_label(s, c) for (_, s), c in zip(resolved, consts, strict=True)]
            node = EnumNode(*args, options=consts, labels=labels)
            node.nullable = nullable
            return node
        discriminator, tags = _discriminator(schema, [s for _, s in resolved])
        labels = [
            _branch_label(s, tag, i)
            for i, ((_, s), tag) in enumerate(zip(resolved, tags, strict=True))
        ]
        node = UnionNode(
            *args,
            branches=resolved,
            labels=labels,
            discriminator=discriminator,
            tags=tags,
            choose=self.matches,
        )
        node.nullable = nullable
        return node


_NO_VALUE = object()


def _union_of(schema: dict) -> list | None:
    """The branches of a `oneOf` / `anyOf` (only one of them may be present)."""
    one_of, any_of = schema.get("oneOf"), schema.get("anyOf")
    if isinstance(one_of, list) and one_of and not isinstance(any_of, list):
        return one_of
    if isinstance(any_of, list) and any_of and not isinstance(one_of, list):
        return any_of
    return None


def _merge_base(base: dict, branch: Schema) -> Schema:
    """A branch with the keywords that sit beside `oneOf` folded in (the branch wins)."""
    if not isinstance(branch, dict):
        return branch
    shape = {k: v for k, v in base.items() if k not in ANNOTATIONS}
    if not shape:
        return branch
    merged = merge_schemas(shape, branch)
    return merged if isinstance(merged, dict) else branch


def _types(schema: dict) -> tuple[list[str], bool]:
    """The declared (or inferred) non-null types, and whether null is allowed."""
    declared = schema.get("type")
    if isinstance(declared, str):
        names = [declared]
    elif isinstance(declared, list):
        names = [t for t in declared if isinstance(t, str)]
    else:
        names = _inferred_type(schema)
    names = [t for t in dict.fromkeys(names) if t in _JSON_TYPES]
    nullable = "null" in names
    if "integer" in names and "number" in names:
        names.remove("integer")
    return [t for t in names if t != "null"], nullable


def _inferred_type(schema: dict) -> list[str]:
    if _object_like(schema):
        return ["object"]
    if "items" in schema or "prefixItems" in schema:
        return ["array"]
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return ["string"]
    if any(k in schema for k in ("minimum", "maximum", "multipleOf")):
        return ["number"]
    return []


def _typeless(schema: dict) -> bool:
    return not any(k in schema for k in ("type", "enum", "const"))


def _object_like(schema: dict) -> bool:
    declared = schema.get("type")
    if declared == "object":
        return True
    if declared is not None:
        return False
    return any(k in schema for k in ("properties", "additionalProperties", "patternProperties"))


def _has_extras_schema(schema: dict) -> bool:
    return (
        isinstance(schema.get("additionalProperties"), dict)
        and bool(schema["additionalProperties"])
    ) or isinstance(schema.get("patternProperties"), dict)


def _is_null_schema(schema: Schema) -> bool:
    if not isinstance(schema, dict):
        return False
    if schema.get("type") == "null" or schema.get("type") == ["null"]:
        return True
    return ("const" in schema and schema["const"] is None) or schema.get("enum") == [None]


def _single_value(schema: Schema) -> Any:
    if isinstance(schema, dict):
        if "const" in schema:
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and len(enum) == 1:
            return enum[0]
    return _NO_VALUE


def _option_label(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _const_label(schema: Schema, value: Any) -> str:
    title = schema.get("title") if isinstance(schema, dict) else None
    label = _option_label(value)
    return f"{label} ({title})" if isinstance(title, str) and title and title != label else label


def _discriminator(union: dict, branches: list[Schema]) -> tuple[str | None, list[Any]]:
    """A property that is a const in every object branch, with distinct values (or the
    OpenAPI `discriminator.propertyName`), and each branch's value of it."""
    hinted = union.get("discriminator")
    names: list[str] = []
    if isinstance(hinted, dict) and isinstance(hinted.get("propertyName"), str):
        names.append(hinted["propertyName"])
    first = branches[0] if isinstance(branches[0], dict) else {}
    props = first.get("properties")
    if isinstance(props, dict):
        names.extend(k for k in props if k not in names)
    for name in names:
        tags = [_branch_tag(b, name) for b in branches]
        if all(t is not _NO_VALUE for t in tags) and len({json.dumps(t) for t in tags}) == len(
            tags
        ):
            return name, tags
    return None, [None] * len(branches)


def _branch_tag(branch: Schema, name: str) -> Any:
    if not isinstance(branch, dict):
        return _NO_VALUE
    props = branch.get("properties")
    if not isinstance(props, dict) or not isinstance(props.get(name), dict):
        return _NO_VALUE
    return _single_value(props[name])


def _branch_label(schema: Schema, tag: Any, index: int) -> str:
    if tag is not None:
        return _option_label(tag)
    if isinstance(schema, dict):
        title = schema.get("title")
        if isinstance(title, str) and title:
            return title
        value = _single_value(schema)
        if value is not _NO_VALUE:
            return _option_label(value)
        declared = schema.get("type")
        if isinstance(declared, str):
            return declared
    return f"option {index + 1}"
