"""Form nodes with children: objects (declared properties and extra keys), maps, arrays and
unions (`oneOf`/`anyOf`), each building its children on first access."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fleet_tui.forms.field_roles import side_fields_last
from fleet_tui.forms.leaf_nodes import RawNode, ScalarNode
from fleet_tui.forms.node import Node, Path
from fleet_tui.forms.patterns import search_or_false
from fleet_tui.forms.schema import MISSING, Schema, json_equal


def adopt(parent: Node, child: Node, value: Any) -> Node:
    """Load `value` into `child`, or a raw field in its place when it cannot hold it."""
    if value is not MISSING and not child.accepts(value):
        child = RawNode(
            parent._build, child.schema, parent, child.key, child.required, reason="mismatch"
        )
    child.load(value)
    return child


class ObjectNode(Node):
    """A JSON object with declared properties (built on first access) and, optionally, a
    key/value editor for extra keys (`additionalProperties` / `patternProperties`)."""

    kind = "object"

    def __init__(self, *args: Any, is_root: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        schema = self.schema if isinstance(self.schema, dict) else {}
        props = schema.get("properties")
        required = schema.get("required")
        self.required_keys = (
            {k for k in required if isinstance(k, str)} if isinstance(required, list) else set()
        )
        self.property_schemas: dict[str, Any] = side_fields_last(
            props if isinstance(props, dict) else {}, self.required_keys
        )
        self.is_root = is_root
        self.present = is_root
        self._children: dict[str, Node] = {}
        self._pending: dict[str, Any] | None = None
        self.extras: MapNode | None = None
        if _declares_extras(schema):
            self.extras = MapNode(self._build, schema, self, None, False)

    def child(self, key: str) -> Node:
        """The node of a declared property (built on first access)."""
        node = self._children.get(key)
        if node is None:
            node = self._build(self.property_schemas[key], self, key, key in self.required_keys)
            if self._pending is None:
                node.start_fresh()
            else:
                node = adopt(self, node, self._pending.pop(key, MISSING))
            self._children[key] = node
        return node

    @property
    def children(self) -> list[Node]:
        nodes = [self.child(key) for key in self.property_schemas]
        return [*nodes, self.extras] if self.extras is not None else nodes

    def _built_children(self) -> list[Node]:
        nodes = list(self._children.values())
        return [*nodes, self.extras] if self.extras is not None else nodes

    def _own_value(self) -> dict[str, Any]:
        out = {}
        for key in self.property_schemas:
            node = self.child(key)
            if node.present:
                out[key] = node.value()
        if self.extras is not None:
            out.update(self.extras.value())
        return out

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or isinstance(value, dict)

    def _load(self, value: dict[str, Any]) -> None:
        self._children = {}
        self._pending = {k: v for k, v in value.items() if k in self.property_schemas}
        extra = {k: v for k, v in value.items() if k not in self.property_schemas}
        if extra and self.extras is None:
            self.extras = MapNode(self._build, self.schema, self, None, False)
        if self.extras is not None:
            self.extras.load(extra)

    def _reset(self) -> None:
        self._children, self._pending = {}, None
        if self.extras is not None:
            self.extras.entries = []
        if self.is_root:
            self.present = True

    def clear(self) -> None:
        super().clear()
        self.present = self.is_root


def _declares_extras(schema: dict[str, Any]) -> bool:
    extra = schema.get("additionalProperties")
    return (
        isinstance(extra, dict)
        or extra is True
        or isinstance(schema.get("patternProperties"), dict)
    )


class MapNode(Node):
    """The extra keys of an object, as an editable list of (key, value field) entries."""

    kind = "map"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries: list[Node] = []

    @property
    def path(self) -> Path:
        return self.parent.path if self.parent is not None else ()

    @property
    def label(self) -> str:
        return "more keys"

    @property
    def help(self) -> str:
        return ""

    def value_schema(self, key: str) -> Schema:
        """The schema a value under `key` must match (patternProperties first)."""
        schema = self.schema if isinstance(self.schema, dict) else {}
        patterns = schema.get("patternProperties")
        if isinstance(patterns, dict):
            for pattern, sub in patterns.items():
                if search_or_false(pattern, key):
                    return sub
        extra = schema.get("additionalProperties", True)
        return extra if isinstance(extra, dict) else True

    @property
    def children(self) -> list[Node]:
        return self.entries

    def add(self, key: str = "", value: Any = MISSING) -> Node:
        """Add an entry (a fresh value field unless `value` is given)."""
        node = self._build(self.value_schema(key), self, key, True)
        if value is MISSING:
            node.start_fresh()
            _start_blank(node)
        else:
            node = adopt(self, node, value)
        self.entries.append(node)
        self._touch()
        return node

    def rename(self, node: Node, key: str) -> Node:
        """Give an entry a new key, rebuilding its field if the key selects another schema."""
        index = self.entries.index(node)
        if self.value_schema(key) is self.value_schema(str(node.key)):
            node.key = key
            return node
        fresh = self._build(self.value_schema(key), self, key, True)
        fresh = adopt(self, fresh, node.value() if node.present else MISSING)
        self.entries[index] = fresh
        self._touch()
        return fresh

    def remove(self, index: int) -> None:
        del self.entries[index]
        self._touch()

    def _own_value(self) -> dict[str, Any]:
        return {str(n.key): n.value() for n in self.entries if n.present}

    def accepts(self, value: Any) -> bool:
        return isinstance(value, dict)

    def _load(self, value: dict[str, Any]) -> None:
        self.entries = []
        for key, item in value.items():
            node = self._build(self.value_schema(key), self, key, True)
            self.entries.append(adopt(self, node, item))
        self.present = True

    def _touch(self) -> None:
        if self.parent is not None:
            self.parent._touch()

    def input_errors(self) -> Iterator[tuple[Path, str]]:
        yield from super().input_errors()
        keys = [n.key for n in self.entries]
        for key in {k for k in keys if keys.count(k) > 1}:
            yield (*self.path, str(key)), "duplicate key"


def _start_blank(node: Node) -> None:
    """A new list item or map entry shows an empty box: for a string that means ""."""
    if isinstance(node, ScalarNode) and node.kind == "string" and not node.present:
        node.set("")


class ArrayNode(Node):
    """A list of item fields with add / remove / move, bounded by minItems / maxItems."""

    kind = "array"

    def __init__(self, *args: Any, items_schema: Schema, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.items_schema = items_schema
        self.items: list[Node] = []

    @property
    def min_items(self) -> int:
        value = self._annotation("minItems", 0)
        return value if isinstance(value, int) else 0

    @property
    def max_items(self) -> int | None:
        value = self._annotation("maxItems")
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def can_add(self) -> bool:
        return self.max_items is None or len(self.items) < self.max_items

    @property
    def can_remove(self) -> bool:
        return len(self.items) > self.min_items

    @property
    def children(self) -> list[Node]:
        return self.items

    def add(self, value: Any = MISSING) -> Node:
        """Append an item (fresh, or holding `value`) and return its node."""
        node = self._build(self.items_schema, self, len(self.items), True)
        if value is MISSING:
            node.start_fresh()
            _start_blank(node)
        else:
            node = adopt(self, node, value)
        self.items.append(node)
        self._renumber()
        self._touch()
        return node

    def remove(self, index: int) -> None:
        del self.items[index]
        self._renumber()
        self._touch()

    def move(self, index: int, to: int) -> None:
        """Move the item at `index` to position `to` (clamped to the list)."""
        to = max(0, min(to, len(self.items) - 1))
        self.items.insert(to, self.items.pop(index))
        self._renumber()
        self._touch()

    def _renumber(self) -> None:
        for i, node in enumerate(self.items):
            node.key = i

    def _own_value(self) -> list[Any]:
        return [n.value() if n.present else None for n in self.items]

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or isinstance(value, list)

    def _load(self, value: list[Any]) -> None:
        self.items = []
        for item in value:
            node = self._build(self.items_schema, self, len(self.items), True)
            self.items.append(adopt(self, node, item))

    def _reset(self) -> None:
        self.items = []


class UnionNode(Node):
    """`oneOf` / `anyOf` (or a type list) of several shapes: one branch is active at a time."""

    kind = "union"

    def __init__(
        self,
        *args: Any,
        branches: list[tuple[int, Schema]],
        labels: list[str],
        discriminator: str | None,
        tags: list[Any],
        choose: Callable[[Schema, Any], bool],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.branch_schemas = branches
        self.branch_labels = labels
        self.discriminator = discriminator
        self._tags = tags
        self._matches = choose
        self.active = 0
        self._branch_nodes: dict[int, Node] = {}

    @property
    def active_branch_index(self) -> int:
        """Index of the active branch in the schema's own `oneOf`/`anyOf` list."""
        return self.branch_schemas[self.active][0]

    def branch_node(self, index: int | None = None) -> Node:
        """The node of a branch (the active one by default), built on first access."""
        index = self.active if index is None else index
        node = self._branch_nodes.get(index)
        if node is None:
            node = self._build(self.branch_schemas[index][1], self, None, True)
            node.start_fresh()
            self._branch_nodes[index] = node
        return node

    @property
    def children(self) -> list[Node]:
        return [self.branch_node()]

    def _built_children(self) -> list[Node]:
        node = self._branch_nodes.get(self.active)
        return [node] if node is not None else []

    def select(self, index: int) -> None:
        """Make branch `index` the active one (its earlier input is kept)."""
        self.active = index
        self.is_null, self.input_error = False, None
        self._touch()

    def _own_value(self) -> Any:
        node = self.branch_node()
        return node.value() if node.present else None

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or self._pick(value) is not None

    def _pick(self, value: Any) -> int | None:
        if self.discriminator and isinstance(value, dict) and self.discriminator in value:
            tag = value[self.discriminator]
            for i, branch_tag in enumerate(self._tags):
                if json_equal(tag, branch_tag) and self.branch_node(i).accepts(value):
                    return i
        for i, (_, schema) in enumerate(self.branch_schemas):
            if self._matches(schema, value) and self.branch_node(i).accepts(value):
                return i
        return next(
            (i for i in range(len(self.branch_schemas)) if self.branch_node(i).accepts(value)),
            None,
        )

    def _load(self, value: Any) -> None:
        index = self._pick(value)
        self.active = index or 0
        fresh = self._build(self.branch_schemas[self.active][1], self, None, True)
        self._branch_nodes = {self.active: adopt(self, fresh, value)}

    def _fresh_value(self) -> None:
        self.branch_node()

    def _reset(self) -> None:
        self._branch_nodes = {}
