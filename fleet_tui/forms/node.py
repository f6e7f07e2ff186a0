"""The base of a form model's nodes: one per field, bound to by the widget.

Every node has a state: absent (left out of the arguments), null (an explicit JSON null) or set.
Containers build their children lazily, so recursive models and very wide schemas cost nothing
until a field is looked at. Nodes never raise on bad input: what cannot be parsed is kept as an
`input_error` on the node and reported by `Form.errors()`. The shapes are in `leaf_nodes.py`
(scalars, choices, constants, raw JSON) and `container_nodes.py` (objects, maps, arrays, unions).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from fleet_tui.forms.schema import MISSING, Schema

Path = tuple[str | int, ...]
NodeFactory = Callable[..., "Node"]

_FORMAT_HINTS = {
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDTHH:MM:SSZ",
    "time": "HH:MM:SS",
    "email": "name@example.com",
    "uri": "https://…",
    "uuid": "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
}


class Node:
    """One field of a form. `kind` tells the widget how to draw it."""

    kind = "node"

    def __init__(
        self,
        build: NodeFactory,
        schema: Schema,
        parent: Node | None,
        key: str | int | None,
        required: bool,
    ) -> None:
        self._build = build
        self.schema = schema
        self.parent = parent
        self.key = key
        self.required = required
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.nullable = False
        self.branch_index: int | None = None
        """Index of the `oneOf`/`anyOf` branch this node was unwrapped from, if any."""
        self.present = False
        self.is_null = False
        self.input_error: str | None = None

    # -- annotations -----------------------------------------------------------------------

    def _annotation(self, name: str, default: Any = None) -> Any:
        return self.schema.get(name, default) if isinstance(self.schema, dict) else default

    @property
    def title(self) -> str:
        title = self._annotation("title")
        return title if isinstance(title, str) else ""

    @property
    def label(self) -> str:
        """What the field is called: its property name, item index, or title."""
        if isinstance(self.key, str):
            return self.key
        if isinstance(self.key, int):
            return f"#{self.key + 1}"
        return self.title

    @property
    def help(self) -> str:
        """The description, as plain text (it comes from the environment: never markup)."""
        description = self._annotation("description")
        return description if isinstance(description, str) else ""

    @property
    def read_only(self) -> bool:
        return self._annotation("readOnly") is True

    @property
    def has_default(self) -> bool:
        return isinstance(self.schema, dict) and "default" in self.schema

    @property
    def default(self) -> Any:
        return self._annotation("default")

    @property
    def placeholder(self) -> str:
        """A hint for an empty field: the first example, else the expected format."""
        examples = self._annotation("examples")
        if isinstance(examples, list) and examples:
            first = examples[0]
            return first if isinstance(first, str) else json.dumps(first)
        fmt = self._annotation("format")
        return _FORMAT_HINTS.get(fmt, "") if isinstance(fmt, str) else ""

    # -- position --------------------------------------------------------------------------

    @property
    def path(self) -> Path:
        """Where this field's value sits in the arguments (keys and indexes)."""
        return () if self.parent is None else self.parent._child_path(self)

    def _child_path(self, child: Node) -> Path:
        return (*self.path, child.key) if child.key is not None else self.path

    @property
    def children(self) -> list[Node]:
        return []

    def walk(self) -> Iterator[Node]:
        """This node and every descendant built so far or reachable (builds lazily)."""
        yield self
        for child in self.children:
            yield from child.walk()

    # -- state -----------------------------------------------------------------------------

    def value(self) -> Any:
        """The JSON value of this field (None when null). Meaningful only when `present`."""
        return None if self.is_null else self._own_value()

    def _own_value(self) -> Any:
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Whether `load(value)` can represent the value faithfully."""
        return value is None and self.nullable

    def load(self, value: Any) -> None:
        """Set from a JSON value (its ancestors become present); MISSING makes the field
        absent. Check `accepts` first: a field only loads what it can show faithfully."""
        self.input_error = None
        if value is MISSING:
            self.clear()
        elif value is None and self.nullable:
            self.set_null()
        else:
            self._touch()
            self._load(value)

    def _load(self, value: Any) -> None:
        raise NotImplementedError

    def start_fresh(self) -> None:
        """Put a newly built field in its initial state: its default, or present if required."""
        default = self.default
        if self.has_default and default is not None and self.accepts(default):
            self.load(default)
        elif self.required and self.kind in ("object", "array", "union", "const", "boolean"):
            self.present, self.is_null = True, False
            self._fresh_value()

    def _fresh_value(self) -> None:
        """Set the value a required field starts with (see `start_fresh`)."""

    def set_null(self) -> None:
        """Make the value an explicit JSON null."""
        self.input_error = None
        self._touch()
        self.is_null = True

    def clear(self) -> None:
        """Leave this field out of the arguments."""
        self.present, self.is_null, self.input_error = False, False, None
        self._reset()

    def _reset(self) -> None:
        """Forget the value (subclasses drop their children)."""

    def _touch(self) -> None:
        """Mark this field and its ancestors as present (an edit inside a null object makes
        it an object again)."""
        self.present, self.is_null = True, False
        if self.parent is not None:
            self.parent._touch()

    def input_errors(self) -> Iterator[tuple[Path, str]]:
        """Input that could not be parsed, in this node and below (built nodes only)."""
        if self.input_error:
            yield self.path, self.input_error
        for child in self._built_children():
            yield from child.input_errors()

    def _built_children(self) -> list[Node]:
        return self.children
