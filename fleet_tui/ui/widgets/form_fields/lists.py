"""Fields of any number of entries: a list's items and an object's extra keys (a map)."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from fleet_tui.forms import ArrayNode, MapNode, Node, ObjectNode
from fleet_tui.forms.typed_values import typable
from fleet_tui.text import counted
from fleet_tui.ui.widgets.field_preview import EditorLook, Palette, button_line, first_focusable
from fleet_tui.ui.widgets.form_fields.base import FieldWidget, NestingField
from fleet_tui.ui.widgets.form_fields.groups import ObjectField


class ArrayField(NestingField[ArrayNode]):
    """A list editor: one row per item with move up / move down / remove, and an add button.
    Adding, removing and moving touch only the rows concerned (no re-render of the list)."""

    CLEARABLE = True

    DEFAULT_CSS = """
    ArrayField > .array-items { height: auto; padding: 0 0 0 2; }
    ArrayField ItemRow { height: auto; }
    ArrayField ItemRow > FieldWidget { width: 1fr; }
    ArrayField .item-buttons { width: auto; height: auto; }
    ArrayField .item-buttons Button { min-width: 3; margin: 0 0 0 1; }
    ArrayField .add-item { margin: 0 0 0 2; }
    ArrayField > .field-line > .array-count { width: 1fr; color: $text-muted; }
    """

    def previewable(self) -> bool:
        return not self.node.items

    def editor_look(self) -> EditorLook:
        return EditorLook("text", self._count())

    def preview_below(self, colors: Palette) -> list[Text]:
        return [button_line(self._add_label(), colors)]

    def compose_editor(self) -> ComposeResult:
        self._shown_count = self._count()
        yield Static(self._shown_count, classes="array-count one-line")

    def _add_label(self) -> str:
        node = self.node
        return "+ add item" + (f" (max {node.max_items})" if node.max_items is not None else "")

    def _count(self) -> str:
        node = self.node
        if not node.present:
            return "(not sent)"
        return "null" if node.is_null else counted(len(node.items), "item")

    def compose_below(self) -> ComposeResult:
        node = self.node
        with Vertical(classes="array-items"):
            for index, item in enumerate(node.items):
                row = self._row(item)
                row.set_buttons(index, len(node.items), can_remove=node.can_remove)
                yield row
        yield Button(self._add_label(), classes="add-item", compact=True, disabled=not node.can_add)

    def _row(self, item: Node) -> ItemRow:
        return ItemRow(self.make_field(item, bare=not isinstance(item, ObjectNode)))

    @property
    def rows(self) -> list[ItemRow]:
        return list(self.query_one(".array-items").query_children(ItemRow))

    @on(Button.Pressed, ".add-item")
    async def _add(self, event: Button.Pressed) -> None:
        event.stop()
        row = self._row(self.node.add())
        await self.query_one(".array-items").mount(row)
        self._changed()
        row.focus_first()

    @on(Button.Pressed, ".item-button")
    async def _item_action(self, event: Button.Pressed) -> None:
        event.stop()
        node = self.node
        row = event.button.query_ancestor(ItemRow)
        index = self.rows.index(row)
        if event.button.name == "remove":
            node.remove(index)
            await row.remove()
        else:
            to = max(
                0, min(index + (-1 if event.button.name == "move-up" else 1), len(node.items) - 1)
            )
            node.move(index, to)
            items = self.query_one(".array-items")
            target = self.rows[to]
            if to < index:
                items.move_child(row, before=target)
            else:
                items.move_child(row, after=target)
            event.button.focus()
        self._changed()

    @on(Button.Pressed, ".clear")
    async def _clear(self, event: Button.Pressed) -> None:
        event.stop()
        self.node.clear()
        await self.query_one(".array-items").remove_children()
        self._changed()

    def refresh_state(self) -> None:
        if self.previewing:
            return
        count = self._count()
        if count != self._shown_count:  # an update re-lays out the form
            self._shown_count = count
            self.query_one(".array-count", Static).update(count)

    def _changed(self) -> None:
        self._update_controls()
        self.edited()

    def _update_controls(self) -> None:
        """Enable the buttons that apply, renumber item titles, update the count."""
        rows = self.rows
        for index, row in enumerate(rows):
            row.set_buttons(index, len(rows), can_remove=self.node.can_remove)
            row.relabel()
        self.query_one(".add-item", Button).disabled = not self.node.can_add
        self.refresh_state()


class ItemRow(Horizontal):
    """One list item: its field and its move up / move down / remove buttons."""

    def __init__(self, field: FieldWidget[Any]) -> None:
        super().__init__()
        self.field = field
        self.buttons = {
            action: Button(label, name=action, classes=f"item-button {action}", compact=True)
            for label, action in (("↑", "move-up"), ("↓", "move-down"), ("✕", "remove"))
        }

    def compose(self) -> ComposeResult:
        yield self.field
        with Horizontal(classes="item-buttons"):
            yield from self.buttons.values()

    def set_buttons(self, index: int, count: int, *, can_remove: bool) -> None:
        """Enable the buttons that apply to the item at `index` of `count`."""
        self.buttons["move-up"].disabled = index == 0
        self.buttons["move-down"].disabled = index == count - 1
        self.buttons["remove"].disabled = not can_remove

    def relabel(self) -> None:
        """Show the item's current position in its title (objects are titled `#n`)."""
        for field in self.query_children(ObjectField):
            field.refresh_state()

    def focus_first(self) -> None:
        target = first_focusable(self)
        if target is not None:
            target.focus()


class MapField(NestingField[MapNode]):
    """Extra keys of an object: a key box and a value field per entry, and an add button."""

    DEFAULT_CSS = """
    MapField .map-row { height: auto; padding: 0 0 0 2; }
    MapField .map-key { width: 24; }
    MapField .map-row > FieldWidget { width: 1fr; }
    MapField .remove-entry { min-width: 3; margin: 0 0 0 1; }
    MapField .add-entry { margin: 0 0 0 2; }
    """

    def compose_below(self) -> ComposeResult:
        for index, entry in enumerate(self.node.entries):
            with MapRow(index):
                if typable(str(entry.key)):
                    yield Input(str(entry.key), placeholder="key", classes="map-key", compact=True)
                else:  # shown escaped, not editable: a text box would show it raw or alter it
                    yield Static(json.dumps(entry.key), classes="map-key")
                yield self.make_field(entry, bare=True)
                yield Button("✕", classes="remove-entry", compact=True)
        yield Button("+ add key", classes="add-entry", compact=True)

    @on(Input.Changed, ".map-key")
    def _renamed(self, event: Input.Changed) -> None:
        event.stop()
        entry = self.node.entries[event.input.query_ancestor(MapRow).index]
        if event.value == entry.key:
            return
        if self.node.rename(entry, event.value) is not entry:
            self.refresh(recompose=True)
        self.edited()

    @on(Button.Pressed, ".add-entry")
    def _add(self, event: Button.Pressed) -> None:
        event.stop()
        self.node.add(_unused_key(self.node))
        self.edited()
        self.refresh(recompose=True)

    @on(Button.Pressed, ".remove-entry")
    def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        self.node.remove(event.button.query_ancestor(MapRow).index)
        self.edited()
        self.refresh(recompose=True)


class MapRow(Horizontal):
    """The entry at `index` of a map: its key box, its value's field and its remove button."""

    def __init__(self, index: int) -> None:
        super().__init__(classes="map-row")
        self.index = index


def _unused_key(node: MapNode) -> str:
    taken = {str(e.key) for e in node.entries}
    return next(f"key{i}" for i in range(1, len(taken) + 2) if f"key{i}" not in taken)
