"""Forms for tool arguments, built from JSON Schema. Pure Python: no Textual in here.

form = build_form(schema)
form.load(arguments)
form.value()    # the arguments to send
form.errors()   # FieldError(path, message) items; empty when value() is valid
"""

from fleet_tui.forms.container_nodes import ArrayNode, MapNode, ObjectNode, UnionNode
from fleet_tui.forms.form import Form, build_form
from fleet_tui.forms.leaf_nodes import ConstNode, EnumNode, RawNode, ScalarNode
from fleet_tui.forms.node import Node
from fleet_tui.forms.schema import MISSING
from fleet_tui.forms.validation import FieldError

__all__ = [
    "MISSING",
    "ArrayNode",
    "ConstNode",
    "EnumNode",
    "FieldError",
    "Form",
    "MapNode",
    "Node",
    "ObjectNode",
    "RawNode",
    "ScalarNode",
    "UnionNode",
    "build_form",
]
