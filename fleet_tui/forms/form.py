"""`Form`: a form model for one JSON Schema, and `build_form`, which never raises."""

from __future__ import annotations

from typing import Any

from fleet_tui.forms.budget import complexity_note
from fleet_tui.forms.builder import NodeBuilder
from fleet_tui.forms.container_nodes import MapNode, ObjectNode, UnionNode
from fleet_tui.forms.leaf_nodes import RawNode
from fleet_tui.forms.node import Node, Path
from fleet_tui.forms.schema import Schema, SchemaContext
from fleet_tui.forms.validation import ArgumentValidator, FieldError, map_errors


class Form:
    """The fields of a tool's arguments, their values, and what is wrong with them."""

    def __init__(self, schema: Schema, *, too_complex: str | None = None) -> None:
        self.schema = schema
        self.too_complex = too_complex
        """Why the tool's own schema was set aside for this one (see `build_form`), or None."""
        self._context = SchemaContext(schema)
        self._builder = NodeBuilder(self._context, self._matches)
        self._validator: ArgumentValidator | None = None
        self.root: Node = self._builder.root(schema)

    @property
    def validator(self) -> ArgumentValidator:
        if self._validator is None:
            self._validator = ArgumentValidator(self.schema)
        return self._validator

    @property
    def schema_problem(self) -> str | None:
        """Why the schema cannot be used for validation, if it cannot."""
        return self.too_complex or self.validator.problem

    def load(self, arguments: Any) -> None:
        """Fill the form from arguments; what cannot be shown as a field becomes raw JSON."""
        root = self._builder.root(self.schema)
        if not root.accepts(arguments):
            root = RawNode(self._builder, root.schema, None, None, True, reason="mismatch")
        root.load(arguments)
        self.root = root

    def value(self) -> Any:
        """The arguments to send (a dict for an object schema)."""
        return self.root.value() if self.root.present else {}

    def input_errors(self) -> list[FieldError]:
        """Input that could not be parsed, each at the path of its field: `value()` leaves it
        out (or holds the field's last good value), so it must not be sent as it is."""
        return [FieldError(path, message) for path, message in self.root.input_errors()]

    def errors(self) -> list[FieldError]:
        """Input that could not be parsed, then every schema violation of `value()`, each at
        the path of its field. Empty exactly when `value()` is valid and all input parsed."""
        found = self.validator.iter_errors(self.value())
        return self.input_errors() + map_errors(found, self._branch_at)

    def node_at(self, path: Path) -> Node | None:
        """The node holding the value at a path (inside the active branch of unions), or None."""
        node = self.field_at(path)
        return _unwrap(node) if node is not None else None

    def field_at(self, path: Path) -> Node | None:
        """The field at a path as the form shows it (a union stays a union), or None."""
        node: Node | None = self.root
        for key in path:
            node = _step(_unwrap(node), key) if node is not None else None
        return node

    def _branch_at(self, path: Path) -> int | None:
        node = self.field_at(path)
        if isinstance(node, UnionNode):
            return node.active_branch_index
        return node.branch_index if node is not None else None

    def _matches(self, schema: Schema, value: Any) -> bool:
        """Whether a value is valid against a branch schema (references resolve in the root)."""
        if isinstance(schema, dict) and isinstance(self.schema, dict):
            defs: dict[str, Any] = {
                k: self.schema[k] for k in ("$defs", "definitions") if k in self.schema
            }
            schema = {**defs, **schema}
        return ArgumentValidator(schema).is_valid(value)


def _unwrap(node: Node) -> Node:
    while isinstance(node, UnionNode):
        node = node.branch_node()
    return node


def _step(node: Node, key: str | int) -> Node | None:
    if isinstance(node, ObjectNode):
        if isinstance(key, str) and key in node.property_schemas:
            return node.child(key)
        return _step(node.extras, key) if node.extras is not None else None
    if isinstance(node, MapNode):
        return next((n for n in node.entries if n.key == key), None)
    children = node.children
    if isinstance(key, int) and 0 <= key < len(children):
        return children[key]
    return None


def build_form(schema: Any) -> Form:
    """A form for any JSON value used as a schema; never raises (bad parts become raw JSON).
    A schema over the budget (forms/budget.py) is neither expanded nor validated: the form is
    one raw JSON field, and `too_complex` says why."""
    note = complexity_note(schema)
    if note is not None:
        return Form(True, too_complex=note)
    try:
        return Form(schema)
    except Exception:  # a schema no rule foresaw: fall back to one raw JSON field
        return Form(True)
