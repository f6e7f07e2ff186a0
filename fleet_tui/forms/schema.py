"""Schema plumbing for forms: follow local `$ref`s, merge `allOf`, compare JSON values.

Everything here is forgiving: a reference that cannot be followed or a keyword of the wrong
shape yields a schema the builder turns into a raw JSON field, never an exception.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

Schema = dict[str, Any] | bool


class _Missing:
    """The value of a field that is absent (distinct from an explicit JSON null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

UNRESOLVED = "x-fleet-unresolved"
"""Marker key put on a schema whose `$ref` could not be followed."""

_MERGED_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentRequired")
_MAX_REF_HOPS = 32


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but True != 1 and "1" != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def merge_schemas(*schemas: Schema) -> Schema:
    """Merge schemas as `allOf` would for building a form: later annotations win,
    property maps are merged, `required` lists are united, `type`s are intersected."""
    out: dict[str, Any] = {}
    for schema in schemas:
        if schema is False:
            return False
        if not isinstance(schema, dict):
            continue
        for key, value in schema.items():
            if key not in out:
                out[key] = value
            elif key in _MERGED_MAPS and isinstance(value, dict) and isinstance(out[key], dict):
                merged = dict(out[key])
                for name, sub in value.items():
                    merged[name] = {"allOf": [merged[name], sub]} if name in merged else sub
                out[key] = merged
            elif key == "required" and isinstance(value, list) and isinstance(out[key], list):
                out[key] = list(dict.fromkeys([*out[key], *value]))
            elif key == "type":
                out[key] = _intersect_types(out[key], value)
            else:
                out[key] = value
    return out


def _intersect_types(a: Any, b: Any) -> Any:
    left = [a] if isinstance(a, str) else list(a) if isinstance(a, list) else []
    right = [b] if isinstance(b, str) else list(b) if isinstance(b, list) else []
    both = [t for t in left if t in right or (t == "number" and "integer" in right)]
    both = ["integer" if t == "number" and "integer" in right else t for t in both]
    if not both:
        return b
    return both[0] if len(both) == 1 else both


class SchemaContext:
    """The root schema a form was built from; resolves local references inside it."""

    def __init__(self, root: Schema) -> None:
        self.root = root

    def resolve(self, schema: Any) -> Schema:
        """The schema with `$ref` followed (siblings merged over the target) and `allOf` merged."""
        return self._resolve(schema, 0)

    def _resolve(self, schema: Any, hops: int) -> Schema:
        if isinstance(schema, bool):
            return schema
        if not isinstance(schema, dict):
            return {UNRESOLVED: "schema is not an object"}
        if hops > _MAX_REF_HOPS:
            return {UNRESOLVED: "references nest too deep"}
        if "$ref" in schema:
            ref = schema["$ref"]
            target = self.lookup(ref) if isinstance(ref, str) else None
            if target is None:
                return {UNRESOLVED: f"cannot follow $ref {ref!r}"}
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            schema = merge_schemas(self._resolve(target, hops + 1), siblings)
            if not isinstance(schema, dict):
                return schema
        members = schema.get("allOf")
        if isinstance(members, list):
            base = {k: v for k, v in schema.items() if k != "allOf"}
            resolved = [self._resolve(m, hops + 1) for m in members]
            merged = merge_schemas(*resolved, base)
            return merged if not isinstance(merged, dict) else self._resolve(merged, hops + 1)
        return schema

    def lookup(self, ref: str) -> Any | None:
        """The subschema a local JSON-pointer reference (`#/$defs/X`) points at, or None."""
        if not ref.startswith("#"):
            return None
        node: Any = self.root
        pointer = unquote(ref[1:])
        if not pointer:
            return node
        if not pointer.startswith("/"):
            return None
        for raw in pointer[1:].split("/"):
            part = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return None
        return node
