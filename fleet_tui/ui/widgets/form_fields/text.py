"""Fields typed into a text box: strings and numbers (`TextField`), any JSON value (`RawField`)."""

from __future__ import annotations

from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.widgets import Input

from fleet_tui.forms import RawNode, ScalarNode
from fleet_tui.text import one_line
from fleet_tui.ui.widgets.field_preview import EditorLook
from fleet_tui.ui.widgets.form_fields.base import FieldWidget


class TextField(FieldWidget[ScalarNode]):
    """Strings and numbers, typed into an Input; an empty box leaves the field out."""

    def previewable(self) -> bool:
        return True

    def editor_look(self) -> EditorLook:
        return EditorLook.input(self.node.text, self._placeholder())

    def _placeholder(self) -> str:
        return one_line("null" if self.node.is_null else self.node.placeholder, 80)

    def _box_type(self) -> Literal["integer", "number", "text"]:
        """A number box takes only what can be part of a number."""
        kind = self.node.kind
        return "integer" if kind == "integer" else "number" if kind == "number" else "text"

    def compose_editor(self) -> ComposeResult:
        node = self.node
        yield Input(
            node.text,
            placeholder=self._placeholder(),
            type=self._box_type(),
            disabled=node.read_only,
            select_on_focus=False,
            compact=True,
        )

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        node = self.node
        if event.value == node.text and not node.input_error:
            return
        if event.value == "":
            node.clear()
        else:
            node.set_text(event.value)
        self.edited()

    def sync_from_node(self) -> None:
        box = self.query_one(Input)
        box.placeholder = self._placeholder()
        with box.prevent(Input.Changed):
            box.value = self.node.text


class RawField(FieldWidget[RawNode]):
    """Any JSON value, typed as JSON text (for `{}`, `true` and what the form cannot draw)."""

    def previewable(self) -> bool:
        return True

    def editor_look(self) -> EditorLook:
        return EditorLook.input(self.node.text, "JSON value")

    def compose_editor(self) -> ComposeResult:
        yield Input(
            self.node.text,
            placeholder="JSON value",
            disabled=self.node.read_only,
            select_on_focus=False,
            compact=True,
        )

    @on(Input.Changed)
    def _json_typed(self, event: Input.Changed) -> None:
        event.stop()
        node = self.node
        if event.value == node.text and not node.input_error:
            return
        node.set_text(event.value)
        self.edited()

    def sync_from_node(self) -> None:
        box = self.query_one(Input)
        with box.prevent(Input.Changed):
            box.value = self.node.text
