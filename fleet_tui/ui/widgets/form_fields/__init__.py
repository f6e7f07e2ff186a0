"""One widget per form-model node: the fields a `ToolForm` is made of.

Each field widget holds its node, writes every edit into it, and posts `FieldEdited` so the form
re-validates. Fields start as painted previews and build their real widgets when first focused
(see `field_preview`): mounting widgets is what makes a wide form slow to appear.

Text from the schema (names, titles, descriptions, enum labels) is untrusted: it is shown
through `literal()` (names through `visible()`, which shows control characters as signs),
never parsed as markup.

`base` holds the frame every field shares, `text`, `choice`, `groups` (objects, sections of
fields) and `lists` (lists, maps) the fields, and `factory` the one place that picks a field
for a node (`field_for`).
"""

from fleet_tui.ui.widgets.form_fields.base import FieldEdited, FieldWidget
from fleet_tui.ui.widgets.form_fields.factory import field_for
from fleet_tui.ui.widgets.form_fields.groups import FieldGroup, fields_for, reveal

__all__ = ["FieldEdited", "FieldGroup", "FieldWidget", "field_for", "fields_for", "reveal"]
