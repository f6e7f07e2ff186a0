"""The nodes of a form model: one per field, bound to by the widget.

Every node has a state: absent (left out of the arguments), null (an explicit JSON null) or set.
Containers build their children lazily, so recursive models and very wide schemas cost nothing
until a field is looked at. Nodes never raise on bad input: what cannot be parsed is kept as an
`input_error` on the node and reported by `Form.errors()`.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from fleet_tui.forms.patterns import search_or_false
from fleet_tui.forms.schema import MISSING, Schema, json_equal

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

    def _adopt(self, child: Node, value: Any) -> Node:
        """Load `value` into `child`, or a raw field in its place when it cannot hold it."""
        if value is not MISSING and not child.accepts(value):
            child = RawNode(
                self._build, child.schema, self, child.key, child.required, reason="mismatch"
            )
        child.load(value)
        return child

    def input_errors(self) -> Iterator[tuple[Path, str]]:
        """Input that could not be parsed, in this node and below (built nodes only)."""
        if self.input_error:
            yield self.path, self.input_error
        for child in self._built_children():
            yield from child.input_errors()

    def _built_children(self) -> list[Node]:
        return self.children


class ScalarNode(Node):
    """A string, integer, number or boolean, edited as text (or a switch for booleans)."""

    def __init__(self, *args: Any, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kind = kind
        self._value: Any = None

    @property
    def format(self) -> str:
        fmt = self._annotation("format")
        return fmt if isinstance(fmt, str) else ""

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        if super().accepts(value):
            return True
        if self.kind == "string":
            return isinstance(value, str) and typable(value)
        if self.kind == "boolean":
            return isinstance(value, bool)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        return self.kind == "number" or isinstance(value, int) or float(value).is_integer()

    def _load(self, value: Any) -> None:
        self._value = value

    def _fresh_value(self) -> None:
        self._value = False

    def set(self, value: Any) -> None:
        """Set a typed value (the widget has already parsed it)."""
        self._value, self.is_null, self.input_error = value, False, None
        self._touch()

    @property
    def text(self) -> str:
        """The value as the text shown in an input box ("" when absent or null)."""
        if not self.present or self.is_null or self._value is None:
            return ""
        return self._value if isinstance(self._value, str) else json.dumps(self._value)

    def set_text(self, text: str) -> None:
        """Set from typed text: strings verbatim, numbers parsed; empty text clears a number."""
        if self.kind == "string":
            self.set(text)
            return
        if self.kind == "boolean":
            self.set(text.strip().lower() in ("true", "1", "yes", "on"))
            return
        stripped = text.strip()
        if not stripped:
            self.clear()
            return
        try:
            parsed = parse_number(stripped, integer=self.kind == "integer")
        except ValueError as error:
            self.input_error = str(error)
            return
        if parsed is None:
            self.input_error = f"not {'an integer' if self.kind == 'integer' else 'a number'}"
        else:
            self.set(parsed)


_UNTYPABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Characters a one-line text box cannot show or keep (newlines, tabs, terminal controls):
strings holding them are edited as JSON text, where they are escaped."""


def typable(text: str) -> bool:
    """Whether a one-line text box can show and keep `text` unchanged."""
    return not _UNTYPABLE.search(text)


def parse_number(text: str, *, integer: bool) -> int | float | None:
    """Parse typed text as a JSON number (int when written without a fraction), else None;
    ValueError for an integer too long to convert."""
    if re.fullmatch(r"[+-]?\d+", text):
        return _integer(text)
    if integer:
        return None
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def parse_json(text: str) -> Any:
    """Parse typed JSON text; raises ValueError saying what is wrong in plain words
    (`invalid JSON: Expecting value at line 1 column 1`). NaN and Infinity are refused: they
    are not JSON, though Python's parser takes them; so is a number too large to be sent as
    itself (`1e999` would become infinity)."""
    try:
        return json.loads(
            text, parse_constant=_not_json, parse_float=_finite_float, parse_int=_integer
        )
    except json.JSONDecodeError as error:
        where = f"at line {error.lineno} column {error.colno}"
        raise ValueError(f"invalid JSON: {error.msg} {where}") from None
    except RecursionError:
        raise ValueError("invalid JSON: nested too deeply") from None
    except ValueError as error:  # from the hooks below
        raise ValueError(f"invalid JSON: {error}") from None


def _not_json(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON value")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too large for a number")
    return number


def _integer(text: str) -> int:
    """`int(text)`, with Python's limit on digits said in plain words."""
    try:
        return int(text)
    except ValueError:
        limit = sys.get_int_max_str_digits()
        raise ValueError(
            f"{len(text):,} digits is too long for a number (at most {limit:,})"
        ) from None


class EnumNode(Node):
    """A choice among fixed values (`enum`, or a union of `const`s)."""

    kind = "enum"

    def __init__(self, *args: Any, options: list[Any], labels: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.options = options
        self.option_labels = labels
        self._value: Any = None

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or any(json_equal(value, o) for o in self.options)

    def _load(self, value: Any) -> None:
        self._value = value

    def set(self, value: Any) -> None:
        self._value, self.is_null, self.input_error = value, False, None
        self._touch()

    @property
    def selected_index(self) -> int | None:
        """Index of the current option, or None when absent or null."""
        if not self.present or self.is_null:
            return None
        return next((i for i, o in enumerate(self.options) if json_equal(o, self._value)), None)


class ConstNode(Node):
    """A field with exactly one allowed value (`const`, or the `null` type)."""

    kind = "const"

    def __init__(self, *args: Any, const: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.const = const
        self._value = const

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        return super().accepts(value) or json_equal(value, self.const)

    def _load(self, value: Any) -> None:
        self._value = value

    def start_fresh(self) -> None:
        """A const is always sent: it usually names the branch of a union."""
        self.present, self._value = True, self.const

    def set(self) -> None:
        """Send the constant."""
        self._value = self.const
        self._touch()


class RawNode(Node):
    """Any JSON value, edited as JSON text: for `{}`, `true` and schemas the form cannot draw."""

    kind = "raw"

    def __init__(self, *args: Any, reason: str = "any", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reason = reason
        self._value: Any = None
        self._text: str | None = None

    def _own_value(self) -> Any:
        return self._value

    def accepts(self, value: Any) -> bool:
        return True

    def load(self, value: Any) -> None:
        self._text = None
        if value is None:
            self.input_error = None
            self._touch()
            self._value = None
        else:
            super().load(value)

    def _load(self, value: Any) -> None:
        self._value = value

    def set(self, value: Any) -> None:
        self._value, self.is_null, self.input_error, self._text = value, False, None, None
        self._touch()

    def _reset(self) -> None:
        self._value, self._text = None, None

    @property
    def text(self) -> str:
        """The JSON text shown for this field (what was typed, if it did not parse)."""
        if self._text is not None:
            return self._text
        if not self.present:
            return ""
        return json.dumps(self._value, ensure_ascii=False)

    def set_text(self, text: str) -> None:
        """Parse typed JSON; invalid JSON is kept as text and reported, empty text clears."""
        if not text.strip():
            self.clear()
            return
        try:
            parsed = parse_json(text)
        except ValueError as exc:
            self._text = text
            self.input_error = str(exc)
            return
        self.set(parsed)
        self._text = text


class ObjectNode(Node):
    """A JSON object with declared properties (built on first access) and, optionally, a
    key/value editor for extra keys (`additionalProperties` / `patternProperties`)."""

    kind = "object"

    def __init__(self, *args: Any, is_root: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        schema = self.schema if isinstance(self.schema, dict) else {}
        props = schema.get("properties")
        self.property_schemas: dict[str, Any] = props if isinstance(props, dict) else {}
        required = schema.get("required")
        self.required_keys = (
            {k for k in required if isinstance(k, str)} if isinstance(required, list) else set()
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
                node = self._adopt(node, self._pending.pop(key, MISSING))
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
            node = self._adopt(node, value)
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
        fresh = self._adopt(fresh, node.value() if node.present else MISSING)
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
            self.entries.append(self._adopt(node, item))
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
            node = self._adopt(node, value)
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
            self.items.append(self._adopt(node, item))

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
        self._branch_nodes = {self.active: self._adopt(fresh, value)}

    def _fresh_value(self) -> None:
        self.branch_node()

    def _reset(self) -> None:
        self._branch_nodes = {}
