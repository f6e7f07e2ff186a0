"""What differs between two servers' catalogs: tools, resources, templates and prompts added,
removed or changed, each changed field with a readable diff of its JSON (a schema's lines)."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

KINDS = ("tools", "resources", "templates", "prompts")
KEYS = {"tools": "name", "resources": "uri", "templates": "uriTemplate", "prompts": "name"}
"""What names an item of each kind (in MCP's wire names)."""
IGNORED = frozenset({"endpoint"})
"""Fields that say where an item came from, not what it is."""


@dataclass
class KindDiff:
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    changed: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    """name -> field -> (value in A, value in B)."""

    @property
    def same(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def as_json(self) -> dict[str, Any]:
        return {
            "added": self.added,
            "removed": self.removed,
            "changed": [
                {"name": name, "fields": {key: {"a": a, "b": b} for key, (a, b) in fields.items()}}
                for name, fields in self.changed.items()
            ],
        }


def diff_kind(kind: str, a: list[dict[str, Any]], b: list[dict[str, Any]]) -> KindDiff:
    """Items of `kind` (wire-named JSON) compared by their name."""
    key = KEYS[kind]
    left = {str(item.get(key)): item for item in a}
    right = {str(item.get(key)): item for item in b}
    found = KindDiff(added=sorted(set(right) - set(left)), removed=sorted(set(left) - set(right)))
    for name in sorted(set(left) & set(right)):
        fields = sorted((set(left[name]) | set(right[name])) - IGNORED)
        changed = {
            f: (left[name].get(f), right[name].get(f))
            for f in fields
            if left[name].get(f) != right[name].get(f)
        }
        if changed:
            found.changed[name] = changed
    return found


def value_diff(a: Any, b: Any) -> list[str]:
    """A unified diff of two values' pretty JSON (keys sorted), without its header lines."""
    lines = difflib.unified_diff(
        _pretty(a).splitlines(), _pretty(b).splitlines(), "A", "B", lineterm="", n=2
    )
    return [line for line in lines if not line.startswith(("---", "+++"))]


def _pretty(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
