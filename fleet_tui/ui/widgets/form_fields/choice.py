"""Fields that pick a value rather than have it typed: a Switch for a boolean, a Select of an
enum's values or of a union's branches, and a constant, which is only shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Select, Static, Switch

from fleet_tui.forms import ConstNode, EnumNode, ScalarNode, UnionNode
from fleet_tui.text import one_line
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.widgets.field_preview import EditorLook
from fleet_tui.ui.widgets.form_fields.base import FieldWidget, NestingField, NodeT

NULL_OPTION = -1
"""The Select value that stands for an explicit JSON null."""


class BooleanField(FieldWidget[ScalarNode]):
    """A Switch; optional booleans also get a `clear` button (leave the field out)."""

    CLEARABLE = True

    DEFAULT_CSS = """
    BooleanField Switch, BooleanField Switch:focus {
        height: 1; border: none; padding: 0; margin: 0 1 0 0;
    }
    BooleanField Switch:focus > .switch--slider { background: $primary-muted; }
    BooleanField .switch-state { width: 1fr; color: $text-muted; }
    """

    def previewable(self) -> bool:
        return True

    def editor_look(self) -> EditorLook:
        return EditorLook("switch", self._state(), on=self._is_on())

    def _is_on(self) -> bool:
        node = self.node
        return bool(node.present and not node.is_null and node.value())

    def compose_editor(self) -> ComposeResult:
        yield Switch(self._is_on(), animate=False, disabled=self.node.read_only)
        yield Static(Text(self._state()), classes="switch-state one-line")

    def _state(self) -> str:
        if not self.node.present:
            return "(not sent)"
        return "null" if self.node.is_null else json.dumps(self.node.value())

    @on(Switch.Changed)
    def _switched(self, event: Switch.Changed) -> None:
        event.stop()
        self.node.set(event.value)
        self.query_one(".switch-state", Static).update(Text(self._state()))
        self.edited()

    @on(Button.Pressed, ".clear")
    def _clear(self, event: Button.Pressed) -> None:
        event.stop()
        self.change(self.node.clear)

    def sync_from_node(self) -> None:
        switch = self.query_one(Switch)
        with switch.prevent(Switch.Changed):
            switch.value = self._is_on()
        self.query_one(".switch-state", Static).update(Text(self._state()))


class ChoiceField(FieldWidget[NodeT]):
    """A field edited through a Select of labelled choices: the blank choice leaves the field
    out, `null` (when the schema allows it) sends null."""

    def state_buttons(self) -> list[str]:
        return []

    def previewable(self) -> bool:
        return True

    def editor_look(self) -> EditorLook:
        selection = self._selection()
        if selection is Select.NULL:
            return EditorLook("select", "(not sent)", placeholder=True)
        if selection == NULL_OPTION:
            return EditorLook("select", "null")
        return EditorLook("select", one_line(self.choice_labels()[selection], 80))

    def choice_labels(self) -> list[str]:
        raise NotImplementedError

    def choice_select(self, labels: list[str], *, allow_blank: bool, classes: str = "") -> Select:
        options: list[tuple[Text, int]] = [
            (literal(one_line(label, 80)), i) for i, label in enumerate(labels)
        ]
        if self.node.nullable:
            options.append((Text("null", style="italic"), NULL_OPTION))
        return Select(
            options,
            prompt="(not sent)",
            allow_blank=allow_blank,
            value=self._selection(),
            classes=classes,
            disabled=self.node.read_only,
            compact=True,
        )

    def _selection(self) -> Any:
        raise NotImplementedError

    def choose(self, value: Any, pick: Callable[[int], object]) -> bool:
        """Apply a Select value to the node (`pick` takes a choice's index); False when it is
        the current one."""
        if value == self._selection():
            return False
        if value is Select.NULL:
            self.node.clear()
        elif value == NULL_OPTION:
            self.node.set_null()
        else:
            pick(int(value))
        self.edited()
        return True


class EnumField(ChoiceField[EnumNode]):
    """A Select of the allowed values."""

    def compose_editor(self) -> ComposeResult:
        yield self.choice_select(self.node.option_labels, allow_blank=True)

    def choice_labels(self) -> list[str]:
        return self.node.option_labels

    def _selection(self) -> Any:
        node = self.node
        if node.present and node.is_null:
            return NULL_OPTION
        index = node.selected_index
        return Select.NULL if index is None else index

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        self.choose(event.value, lambda index: self.node.set(self.node.options[index]))


class UnionField(ChoiceField[UnionNode], NestingField[UnionNode]):
    """A branch selector (Select) and the fields of the chosen branch."""

    DEFAULT_CSS = """
    UnionField > .union-branch { height: auto; padding: 0 0 0 2; }
    """

    def compose_editor(self) -> ComposeResult:
        yield self.choice_select(
            self.node.branch_labels, allow_blank=not self.node.required, classes="branch-select"
        )

    def previewable(self) -> bool:
        return not self._shows_branch()

    def _shows_branch(self) -> bool:
        return self.node.present and not self.node.is_null

    def choice_labels(self) -> list[str]:
        return self.node.branch_labels

    def compose_below(self) -> ComposeResult:
        with Vertical(classes="union-branch"):
            if self._shows_branch():
                yield self.make_field(self.node.branch_node(), bare=True)

    def _selection(self) -> Any:
        node = self.node
        if not node.present:
            return Select.NULL if not node.required else node.active
        return NULL_OPTION if node.is_null else node.active

    @on(Select.Changed, ".branch-select")
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        if self.choose(event.value, self.node.select):
            self.refresh(recompose=True)
            self.call_after_refresh(self._focus_branch_select)

    def _focus_branch_select(self) -> None:
        for select in self.query(".branch-select"):  # none if the field was removed meanwhile
            select.focus()


class ConstField(FieldWidget[ConstNode]):
    """A fixed value, shown (it is always sent)."""

    def previewable(self) -> bool:
        return True

    def has_editor(self) -> bool:
        return False

    def editor_look(self) -> EditorLook:
        node = self.node
        return EditorLook("text", f"= {one_line(json.dumps(node.const, ensure_ascii=False), 200)}")

    def compose_editor(self) -> ComposeResult:
        shown = json.dumps(self.node.const, ensure_ascii=False)
        yield Static(literal(f"= {one_line(shown, 200)}", "dim"), classes="const-value")
