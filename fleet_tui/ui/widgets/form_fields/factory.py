"""Which widget edits which node."""

from __future__ import annotations

from typing import Any

from fleet_tui.forms import (
    ArrayNode,
    ConstNode,
    EnumNode,
    MapNode,
    Node,
    ObjectNode,
    RawNode,
    ScalarNode,
    UnionNode,
)
from fleet_tui.forms.field_roles import is_side_field
from fleet_tui.ui.widgets.form_fields.base import FieldWidget
from fleet_tui.ui.widgets.form_fields.choice import BooleanField, ConstField, EnumField, UnionField
from fleet_tui.ui.widgets.form_fields.groups import ObjectField
from fleet_tui.ui.widgets.form_fields.lists import ArrayField, MapField
from fleet_tui.ui.widgets.form_fields.long_text import FoldedRawField, MultilineField
from fleet_tui.ui.widgets.form_fields.text import RawField, TextField


def field_for(node: Node, *, bare: bool = False) -> FieldWidget[Any]:
    """The widget that edits `node`. `bare` leaves out the name line (list items, branches)."""
    if isinstance(node, ObjectNode):
        return ObjectField(node, field_for, bare=bare)
    if isinstance(node, ArrayNode):
        return ArrayField(node, field_for, bare=bare)
    if isinstance(node, MapNode):
        return MapField(node, field_for, bare=bare)
    if isinstance(node, UnionNode):
        return UnionField(node, field_for, bare=bare)
    if isinstance(node, EnumNode):
        return EnumField(node, bare=bare)
    if isinstance(node, ConstNode):
        return ConstField(node, bare=bare)
    if isinstance(node, ScalarNode) and node.kind == "boolean":
        return BooleanField(node, bare=bare)
    if isinstance(node, ScalarNode):
        return MultilineField(node, bare=bare) if node.multiline else TextField(node, bare=bare)
    if isinstance(node, RawNode) and not bare and is_side_field(node.key, node.required):
        return FoldedRawField(node)
    if isinstance(node, RawNode):
        return RawField(node, bare=bare)
    raise TypeError(f"no field edits a {type(node).__name__}")
