"""Fields edited other than on one line: long strings over several lines (`MultilineField`),
and an action's extras (OpenEnv's `metadata`) folded at the end of the form (`FoldedRawField`)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.widgets import TextArea

from fleet_tui.forms import ScalarNode
from fleet_tui.ui.widgets.form_fields.base import FieldWidget
from fleet_tui.ui.widgets.form_fields.groups import FieldGroup, title_text
from fleet_tui.ui.widgets.form_fields.text import RawField


class MultilineField(FieldWidget[ScalarNode]):
    """A string typed over several lines (code, a message, a prompt); tab leaves the box.
    An empty box leaves the field out."""

    DEFAULT_CSS = """
    MultilineField > TextArea { height: auto; min-height: 3; max-height: 12; background: $boost; }
    """

    def compose_below(self) -> ComposeResult:
        node = self.node
        yield TextArea(
            node.text,
            soft_wrap=True,
            compact=True,
            disabled=node.read_only,
            placeholder=node.placeholder,
        )

    @on(TextArea.Changed)
    def _typed(self, event: TextArea.Changed) -> None:
        event.stop()
        node, text = self.node, event.text_area.text
        if text == node.text and not node.input_error:
            return
        if text == "":
            node.clear()
        else:
            node.set_text(text)
        self.edited()

    def sync_from_node(self) -> None:
        box = self.query_one(TextArea)
        with box.prevent(TextArea.Changed):
            box.text = self.node.text


class FoldedRawField(RawField):
    """An optional extras field (OpenEnv's `metadata`): its JSON box folded under its name,
    so the action's own fields come first and take the first keystrokes."""

    DEFAULT_CSS = """
    FoldedRawField > FieldGroup > Contents { padding: 0 0 0 2; }
    FoldedRawField > FieldGroup > Contents > .field-line { height: auto; }
    FoldedRawField > FieldGroup > Contents > .field-line > Input { width: 1fr; }
    """

    def previewable(self) -> bool:
        return False

    def compose(self) -> ComposeResult:
        with FieldGroup(title_text(self.node), collapsed=not self.node.present):
            yield from super().compose()
