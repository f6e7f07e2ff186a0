"""Fields shown in groups: a nested object's fields in a collapsible group, and a long run of
sibling fields in sections that are mounted when first shown.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Collapsible

from fleet_tui.forms import Node, ObjectNode
from fleet_tui.text import visible
from fleet_tui.ui.widgets.field_preview import Palette, group_title
from fleet_tui.ui.widgets.form_fields.base import (
    FieldEdited,
    FieldFactory,
    FieldWidget,
    NestingField,
    header_text,
)

EXPAND_DEPTH = 3
"""Present objects nested at most this deep start expanded; deeper ones start collapsed."""


def title_line(node: Node) -> Text:
    """A nested object's title: its name line and whether it is sent at all."""
    text = header_text(node)
    state = "not sent" if not node.present else "null" if node.is_null else ""
    if state:
        text.append(f"  ({state})", style="dim italic")
    return text


def title_text(node: Node) -> Content:
    """`title_line` for a `FieldGroup`'s title."""
    return Content.from_rich_text(title_line(node))


class FieldGroup(Collapsible, inherit_css=False):
    """A Collapsible with a styled title, and without Collapsible's `:focus-within` tint: with
    that rule, every focus change inside re-applies the stylesheet to all the fields in the
    group."""

    DEFAULT_CSS = """
    FieldGroup { width: 1fr; height: auto; background: $surface; padding: 0; margin: 0; }
    FieldGroup.-collapsed > Contents { display: none; }
    """

    def __init__(self, title: Content, *, collapsed: bool) -> None:
        super().__init__(collapsed=collapsed)
        self.show_title(title)

    def show_title(self, title: Content) -> None:
        """Show `title` on the group's title line. (Collapsible's own `title` is a plain
        string; its title line shows styled text.)"""
        self._title.label = title


class ObjectField(NestingField[ObjectNode]):
    """Nested fields in a collapsible group, mounted the first time it is expanded."""

    CLEARABLE = True

    DEFAULT_CSS = """
    ObjectField > FieldGroup > Contents { padding: 0 0 0 2; }
    ObjectField > FieldGroup > Contents > .field-line { height: auto; }
    """

    def previewable(self) -> bool:
        return not self._starts_expanded()

    def _starts_expanded(self) -> bool:
        return self.node.present and self.node.depth <= EXPAND_DEPTH

    def preview_row(self, width: int, colors: Palette) -> list[Text]:
        return [group_title(title_line(self.node), width, colors)]

    def compose(self) -> ComposeResult:
        node = self.node
        self._error = self._known_error()
        if self.previewing:
            return
        if self.bare:
            yield from fields_for(node.children, self.make_field)
        else:
            expanded = self._starts_expanded()
            self._fields_mounted = expanded
            with FieldGroup(title_text(node), collapsed=not expanded):
                if expanded:
                    yield from fields_for(node.children, self.make_field)
                buttons = list(self.compose_state_buttons())
                if buttons:
                    with Horizontal(classes="field-line object-state"):
                        yield from buttons
        yield from self.compose_notes()

    def refresh_state(self) -> None:
        # by FieldGroup: a query by Collapsible misses it (a type its CSS does not inherit)
        for group in self.query_children(FieldGroup):
            group.show_title(title_text(self.node))

    @on(Collapsible.Expanded)
    async def _expanded(self, event: Collapsible.Expanded) -> None:
        if event.collapsible.parent is not self:
            return
        event.stop()
        if not self._fields_mounted:
            self._fields_mounted = True
            contents = event.collapsible.query_one(Collapsible.Contents)
            buttons = contents.query_children(".object-state")
            before = buttons.first() if buttons else None
            await contents.mount_all(fields_for(self.node.children, self.make_field), before=before)
            self.edited()

    @on(Button.Pressed, ".clear")
    def _clear(self, event: Button.Pressed) -> None:
        event.stop()
        self.change(self.node.clear)


SECTION_SIZE = 20
"""Sibling fields beyond 1.5 times this many are grouped in sections of this many."""


def fields_for(nodes: list[Node], make_field: FieldFactory) -> list[Widget]:
    """Widgets for sibling fields, made by `make_field`. A long run is split into sections of
    `SECTION_SIZE`, each under a title; only the first section's fields are mounted now, the
    others' when shown (mounting is what costs time)."""
    if len(nodes) <= SECTION_SIZE * 3 // 2:
        return [make_field(node) for node in nodes]
    widgets: list[Widget] = []
    for start in range(0, len(nodes), SECTION_SIZE):
        run = nodes[start : start + SECTION_SIZE]
        section = FieldSection(run, start, make_field, shown=start == 0)
        widgets += [section, *section.fields]
    return widgets


class FieldSection(Widget, can_focus=True):
    """The title of a run of sibling fields (`▶ fields 21 to 40: a … b`): enter or a click
    shows or hides them. The fields are the siblings after it (no nesting: every level of
    nested containers multiplies the cost of a layout), mounted when first shown."""

    DEFAULT_CSS = """
    FieldSection { height: 1; background: $surface; padding: 0 1; pointer: pointer; }
    FieldSection:focus {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    """

    BINDINGS = [Binding("enter,space", "toggle_fields", "Show/hide fields", show=False)]

    def __init__(
        self, nodes: list[Node], start: int, make_field: FieldFactory, *, shown: bool
    ) -> None:
        super().__init__()
        self.nodes = nodes
        self.make_field = make_field
        self.shown = shown
        self.title = Text(f"fields {start + 1} to {start + len(nodes)}: ", style="bold")
        self.title.append(visible(f"{nodes[0].label} … {nodes[-1].label}"))
        self.fields = [make_field(node) for node in nodes] if shown else []

    def render(self) -> RenderResult:
        return Text("▼ " if self.shown else "▶ ") + self.title

    async def action_toggle_fields(self) -> None:
        self.shown = not self.shown
        self.refresh()
        if self.fields:
            for widget in self.fields:
                widget.display = self.shown
            return
        self.fields = [self.make_field(node) for node in self.nodes]
        parent = self.parent
        assert isinstance(parent, Widget)
        await parent.mount_all(self.fields, after=self)
        self.post_message(FieldEdited())

    async def on_click(self) -> None:
        await self.action_toggle_fields()


async def reveal(field: FieldWidget[Any]) -> None:
    """Open the groups and show the sections that hide `field` (to point the user at it)."""
    for widget in field.ancestors_with_self:
        if isinstance(widget, FieldGroup):
            widget.collapsed = False
        elif isinstance(widget, FieldWidget) and not widget.display:
            parent = widget.parent
            assert isinstance(parent, Widget)
            sections = parent.query_children(FieldSection)
            section = next((s for s in sections if widget in s.fields), None)
            if section is not None:
                await section.action_toggle_fields()
