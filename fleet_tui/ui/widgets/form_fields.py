"""One widget per form-model node: the fields a `ToolForm` is made of.

Each field widget holds its node, writes every edit into it, and posts `FieldEdited` so the form
re-validates. Fields start as painted previews and build their real widgets when first focused
(see `field_preview`): mounting widgets is what makes a wide form slow to appear.

Text from the schema (names, titles, descriptions, enum labels) is untrusted: it is shown
through `literal()` (names through `visible()`, which shows control characters as signs),
never parsed as markup.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from rich.text import Text
from textual import on
from textual.app import ComposeResult, RenderResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Collapsible, Input, Select, Static, Switch

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
from fleet_tui.forms.nodes import typable
from fleet_tui.ui.safe_text import literal, one_line, visible
from fleet_tui.ui.widgets.field_preview import (
    EditorLook,
    Palette,
    PreviewWidget,
    button_line,
    first_focusable,
    group_title,
    row_lines,
    wrapped,
)

NULL_OPTION = -1
"""The Select value that stands for an explicit JSON null."""

STATE_BUTTONS = {"null": "set-null", "clear": "clear"}
"""The state buttons a field may have beside its name, by label, and their CSS classes."""

EXPAND_DEPTH = 3
"""Present objects nested at most this deep start expanded; deeper ones start collapsed."""


class FieldEdited(Message):
    """A field changed its node's value (or the shape of the form under it)."""


def field_for(node: Node, *, bare: bool = False) -> FieldWidget:
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
        return TextField(node, bare=bare)
    return RawField(node, bare=bare)


def header_text(node: Node) -> Text:
    """`name *  Title  type`: the name through `visible()`, never as markup."""
    text = Text(visible(node.label or "value"), style="bold")
    if node.required:
        text.append(" *", style="bold red")
    if node.title and node.title.lower().replace(" ", "_") != node.label.lower():
        text.append(f"  {one_line(node.title, 60)}", style="italic")
    hint = _type_hint(node)
    if hint:
        text.append(f"  {hint}", style="dim")
    return text


def title_line(node: Node) -> Text:
    """A nested object's title: its name line and whether it is sent at all."""
    text = header_text(node)
    state = "not sent" if not node.present else "null" if node.is_null else ""
    if state:
        text.append(f"  ({state})", style="dim italic")
    return text


def title_text(node: Node) -> Content:
    """`title_line` for a Collapsible's title."""
    return Content.from_rich_text(title_line(node))


def _type_hint(node: Node) -> str:
    if isinstance(node, ScalarNode):
        return f"{node.kind} ({node.format})" if node.format else node.kind
    if isinstance(node, RawNode):
        return "JSON"
    return ""


class FieldWidget(PreviewWidget):
    """The common frame: a line with the name, the editor and state buttons, then the help
    text and the field's errors (one notes line, hidden when empty).

    A field that `previewable()` starts as a preview (see `PreviewWidget`): the same lines,
    painted, until it is focused or clicked."""

    DEFAULT_CSS = """
    FieldWidget { height: auto; }
    FieldWidget > .field-line { height: auto; }
    FieldWidget > .field-line > .field-name {
        width: 30%; min-width: 18; max-width: 36; height: auto; padding: 0 1 0 0;
    }
    FieldWidget > .field-line > Input, FieldWidget > .field-line > Select { width: 1fr; }
    FieldWidget > .field-notes { color: $text-muted; height: auto; padding: 0 0 0 2; }
    FieldWidget > .field-notes.empty { display: none; }
    FieldWidget .field-state { width: auto; min-width: 6; margin: 0 0 0 1; }
    FieldWidget Input { background: $boost; }
    /* one line each, cut with an ellipsis, as the preview draws them */
    FieldWidget > .field-line > .one-line, FieldWidget SelectCurrent > Static#label {
        height: 1; text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    def __init__(self, node: Node, *, bare: bool = False) -> None:
        self.node = node
        self.bare = bare
        self._error = ""
        previewing = not bare and self.previewable()
        super().__init__(
            previewing=previewing,
            focusable=not node.read_only and self.has_editor(),
            classes="bare" if bare else "",
        )

    # -- what a field is made of (subclasses fill these in) -----------------------------------

    def previewable(self) -> bool:
        """Whether the field can start as a painted preview (it shows no nested fields)."""
        return False

    def has_editor(self) -> bool:
        """Whether the field has something to focus (a constant does not)."""
        return True

    def editor_look(self) -> EditorLook:
        """How the editor looks in the preview."""
        return EditorLook("text")

    CLEARABLE = False
    """Whether an optional field gets a `clear` button (an emptied text box already clears)."""

    def state_buttons(self) -> list[str]:
        """Labels of the buttons beside the name: `null` for nullable fields, `clear` for
        optional ones that cannot otherwise be left out."""
        clear = self.CLEARABLE and not self.node.required
        return (["null"] if self.node.nullable else []) + (["clear"] if clear else [])

    def preview_row(self, width: int, colors: Palette) -> list[Text]:
        """The preview's row: name, editor, buttons (more lines when the name wraps)."""
        name, look, buttons = header_text(self.node), self.editor_look(), self.state_buttons()
        return row_lines(width, name, look, buttons, colors, self.app.console)

    def preview_below(self, colors: Palette) -> list[Text]:
        """Preview lines under the row, above the notes (an empty list's add button)."""
        return []

    def compose(self) -> ComposeResult:
        self._error = self._known_error()
        if self.previewing:
            return
        if self.bare:
            yield from self.compose_editor()
        else:
            with Horizontal(classes="field-line"):
                yield Static(header_text(self.node), classes="field-name")
                yield from self.compose_editor()
                yield from self.compose_state_buttons()
        yield from self.compose_below()
        yield from self.compose_notes()

    def compose_notes(self) -> ComposeResult:
        """The help and error line. Left out while empty (fewer widgets mount faster), except
        for required fields."""
        notes = self._notes()
        if notes or self.node.required:
            yield Static(notes, classes="field-notes" + ("" if notes else " empty"))

    def _known_error(self) -> str:
        """This field's messages from the enclosing form's last validation (none outside one)."""
        for ancestor in self.ancestors:
            errors = getattr(ancestor, "errors_by_path", None)
            if errors is not None:
                return "; ".join(errors.get(self.node.path, []))
        return ""

    def _notes(self) -> Text:
        text = Text()
        if self.node.help and not self.bare:
            text.append_text(literal(self.node.help.strip()))
        if self._error:
            if text:
                text.append("\n")
            text.append_text(literal(self._error, "red"))
        return text

    def compose_state_buttons(self) -> ComposeResult:
        for label in self.state_buttons():
            yield Button(label, classes=f"field-state {STATE_BUTTONS[label]}", compact=True)

    def compose_editor(self) -> ComposeResult:
        """The editor on the name line."""
        yield from ()

    def compose_below(self) -> ComposeResult:
        """What goes under the name line (list items, a branch's fields)."""
        yield from ()

    # -- the preview --------------------------------------------------------------------------

    def preview_lines(self, width: int, colors: Palette) -> list[Text]:
        return [
            *self.preview_row(width, colors),
            *self.preview_below(colors),
            *self._preview_notes(width, colors),
        ]

    def _preview_notes(self, width: int, colors: Palette) -> list[Text]:
        notes = self._notes()
        notes.style = colors.muted
        return wrapped(notes, width, self.app.console)

    # -- edits and state ------------------------------------------------------------------------

    def edited(self) -> None:
        self.post_message(FieldEdited())

    def show_error(self, messages: list[str]) -> None:
        error = "; ".join(messages)
        if error == self._error:
            return
        self._error = error
        if self.previewing:
            self.repaint()
            return
        notes = self._notes()
        lines = self.query_children(".field-notes")
        if lines:
            line = lines.first(Static)
            line.update(notes)
            line.set_class(not notes, "empty")
        elif notes:
            self.mount(Static(notes, classes="field-notes"))

    def refresh_state(self) -> None:
        """Re-show state that edits elsewhere may have changed (containers override)."""

    @on(Button.Pressed, ".set-null")
    def _set_null(self, event: Button.Pressed) -> None:
        event.stop()
        self.change(self.node.set_null)

    def change(self, edit: Callable[[], object]) -> None:
        """Apply `edit` to the node, show the result and tell the form."""
        edit()
        if self.previewing:
            self.repaint()
        else:
            self.sync_from_node()
        self.edited()

    def sync_from_node(self) -> None:
        """Show the node's current value after a change made outside the editor."""
        self.refresh(recompose=True)


class FieldFactory(Protocol):
    """Makes the widget that edits a node: `field_for`."""

    def __call__(self, node: Node, *, bare: bool = False) -> FieldWidget: ...


class NestingField(FieldWidget):
    """A field with fields inside. It makes them with the `make_field` it is given (the
    factory, `field_for`, builds every kind of field, this one included)."""

    def __init__(self, node: Node, make_field: FieldFactory, *, bare: bool = False) -> None:
        self.make_field = make_field
        super().__init__(node, bare=bare)


class TextField(FieldWidget):
    """Strings and numbers, typed into an Input; an empty box leaves the field out."""

    def previewable(self) -> bool:
        return True

    def editor_look(self) -> EditorLook:
        node = self.node
        assert isinstance(node, ScalarNode)
        return EditorLook.input(node.text, self._placeholder())

    def _placeholder(self) -> str:
        return one_line("null" if self.node.is_null else self.node.placeholder, 80)

    def compose_editor(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, ScalarNode)
        kind = node.kind if node.kind in ("integer", "number") else "text"
        yield Input(
            node.text,
            placeholder=self._placeholder(),
            type=kind,
            disabled=node.read_only,
            select_on_focus=False,
            compact=True,
        )

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, ScalarNode)
        if event.value == node.text and not node.input_error:
            return
        if event.value == "":
            node.clear()
        else:
            node.set_text(event.value)
        self.edited()

    def sync_from_node(self) -> None:
        node = self.node
        assert isinstance(node, ScalarNode)
        box = self.query_one(Input)
        box.placeholder = self._placeholder()
        with box.prevent(Input.Changed):
            box.value = node.text


class RawField(FieldWidget):
    """Any JSON value, typed as JSON text (for `{}`, `true` and what the form cannot draw)."""

    def previewable(self) -> bool:
        return True

    def editor_look(self) -> EditorLook:
        node = self.node
        assert isinstance(node, RawNode)
        return EditorLook.input(node.text, "JSON value")

    def compose_editor(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, RawNode)
        yield Input(
            node.text,
            placeholder="JSON value",
            disabled=node.read_only,
            select_on_focus=False,
            compact=True,
        )

    @on(Input.Changed)
    def _json_typed(self, event: Input.Changed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, RawNode)
        if event.value == node.text and not node.input_error:
            return
        node.set_text(event.value)
        self.edited()

    def sync_from_node(self) -> None:
        node = self.node
        assert isinstance(node, RawNode)
        box = self.query_one(Input)
        with box.prevent(Input.Changed):
            box.value = node.text


class BooleanField(FieldWidget):
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
        node = self.node
        assert isinstance(node, ScalarNode)
        node.set(event.value)
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


class ChoiceField(FieldWidget):
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


class EnumField(ChoiceField):
    """A Select of the allowed values."""

    def compose_editor(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, EnumNode)
        yield self.choice_select(node.option_labels, allow_blank=True)

    def choice_labels(self) -> list[str]:
        node = self.node
        assert isinstance(node, EnumNode)
        return node.option_labels

    def _selection(self) -> Any:
        node = self.node
        assert isinstance(node, EnumNode)
        if node.present and node.is_null:
            return NULL_OPTION
        index = node.selected_index
        return Select.NULL if index is None else index

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, EnumNode)
        self.choose(event.value, lambda index: node.set(node.options[index]))


class ConstField(FieldWidget):
    """A fixed value, shown (it is always sent)."""

    def previewable(self) -> bool:
        return True

    def has_editor(self) -> bool:
        return False

    def editor_look(self) -> EditorLook:
        node = self.node
        assert isinstance(node, ConstNode)
        return EditorLook("text", f"= {one_line(json.dumps(node.const, ensure_ascii=False), 200)}")

    def compose_editor(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, ConstNode)
        shown = json.dumps(node.const, ensure_ascii=False)
        yield Static(literal(f"= {one_line(shown, 200)}", "dim"), classes="const-value")


class FieldGroup(Collapsible, inherit_css=False):
    """A Collapsible without Collapsible's `:focus-within` tint: with that rule, every focus
    change inside re-applies the stylesheet to all the fields in the group."""

    DEFAULT_CSS = """
    FieldGroup { width: 1fr; height: auto; background: $surface; padding: 0; margin: 0; }
    FieldGroup.-collapsed > Contents { display: none; }
    """


class ObjectField(NestingField):
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
        assert isinstance(node, ObjectNode)
        self._error = self._known_error()
        if self.previewing:
            return
        if self.bare:
            yield from fields_for(node.children, self.make_field)
        else:
            expanded = self._starts_expanded()
            self._fields_mounted = expanded
            with FieldGroup(title=title_text(node), collapsed=not expanded):  # type: ignore[arg-type]
                if expanded:
                    yield from fields_for(node.children, self.make_field)
                buttons = list(self.compose_state_buttons())
                if buttons:
                    with Horizontal(classes="field-line object-state"):
                        yield from buttons
        yield from self.compose_notes()

    def refresh_state(self) -> None:
        for collapsible in self.query_children(Collapsible):
            title = title_text(self.node)
            if collapsible.title != title:
                collapsible.title = title  # type: ignore[assignment]

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

    BINDINGS = [Binding("enter,space", "toggle", "Show/hide fields", show=False)]

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

    async def action_toggle(self) -> None:
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
        await self.action_toggle()


async def reveal(field: FieldWidget) -> None:
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
                await section.action_toggle()


class ArrayField(NestingField):
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
        node = self.node
        assert isinstance(node, ArrayNode)
        return not node.items

    def editor_look(self) -> EditorLook:
        return EditorLook("text", self._count())

    def preview_below(self, colors: Palette) -> list[Text]:
        return [button_line(self._add_label(), colors)]

    def compose_editor(self) -> ComposeResult:
        self._shown_count = self._count()
        yield Static(self._shown_count, classes="array-count one-line")

    def _add_label(self) -> str:
        node = self.node
        assert isinstance(node, ArrayNode)
        return "+ add item" + (f" (max {node.max_items})" if node.max_items is not None else "")

    def _count(self) -> str:
        node = self.node
        assert isinstance(node, ArrayNode)
        if not node.present:
            return "(not sent)"
        return "null" if node.is_null else f"{len(node.items)} item(s)"

    def compose_below(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, ArrayNode)
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
        node = self.node
        assert isinstance(node, ArrayNode)
        row = self._row(node.add())
        await self.query_one(".array-items").mount(row)
        self._changed()
        row.focus_first()

    @on(Button.Pressed, ".item-button")
    async def _item_action(self, event: Button.Pressed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, ArrayNode)
        row = next(a for a in event.button.ancestors if isinstance(a, ItemRow))
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
        node = self.node
        assert isinstance(node, ArrayNode)
        rows = self.rows
        for index, row in enumerate(rows):
            row.set_buttons(index, len(rows), can_remove=node.can_remove)
            row.relabel()
        self.query_one(".add-item", Button).disabled = not node.can_add
        self.refresh_state()


class ItemRow(Horizontal):
    """One list item: its field and its move up / move down / remove buttons."""

    def __init__(self, field: FieldWidget) -> None:
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


class MapField(NestingField):
    """Extra keys of an object: a key box and a value field per entry, and an add button."""

    DEFAULT_CSS = """
    MapField .map-row { height: auto; padding: 0 0 0 2; }
    MapField .map-key { width: 24; }
    MapField .map-row > FieldWidget { width: 1fr; }
    MapField .remove-entry { min-width: 3; margin: 0 0 0 1; }
    MapField .add-entry { margin: 0 0 0 2; }
    """

    def compose_below(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, MapNode)
        for index, entry in enumerate(node.entries):
            with Horizontal(classes="map-row"):
                if typable(str(entry.key)):
                    key = Input(str(entry.key), placeholder="key", classes="map-key", compact=True)
                    key.entry_index = index  # type: ignore[attr-defined]
                    yield key
                else:  # shown escaped, not editable: a text box would show it raw or alter it
                    yield Static(json.dumps(entry.key), classes="map-key")
                yield self.make_field(entry, bare=True)
                button = Button("✕", classes="remove-entry", compact=True)
                button.entry_index = index  # type: ignore[attr-defined]
                yield button
        yield Button("+ add key", classes="add-entry", compact=True)

    @on(Input.Changed, ".map-key")
    def _renamed(self, event: Input.Changed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, MapNode)
        entry = node.entries[int(getattr(event.input, "entry_index", 0))]
        if event.value == entry.key:
            return
        if node.rename(entry, event.value) is not entry:
            self.refresh(recompose=True)
        self.edited()

    @on(Button.Pressed, ".add-entry")
    def _add(self, event: Button.Pressed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, MapNode)
        node.add(_unused_key(node))
        self.edited()
        self.refresh(recompose=True)

    @on(Button.Pressed, ".remove-entry")
    def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, MapNode)
        node.remove(int(getattr(event.button, "entry_index", 0)))
        self.edited()
        self.refresh(recompose=True)


def _unused_key(node: MapNode) -> str:
    taken = {str(e.key) for e in node.entries}
    return next(f"key{i}" for i in range(1, len(taken) + 2) if f"key{i}" not in taken)


class UnionField(ChoiceField, NestingField):
    """A branch selector (Select) and the fields of the chosen branch."""

    DEFAULT_CSS = """
    UnionField > .union-branch { height: auto; padding: 0 0 0 2; }
    """

    def compose_editor(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, UnionNode)
        yield self.choice_select(
            node.branch_labels, allow_blank=not node.required, classes="branch-select"
        )

    def previewable(self) -> bool:
        return not self._shows_branch()

    def _shows_branch(self) -> bool:
        return self.node.present and not self.node.is_null

    def choice_labels(self) -> list[str]:
        node = self.node
        assert isinstance(node, UnionNode)
        return node.branch_labels

    def compose_below(self) -> ComposeResult:
        node = self.node
        assert isinstance(node, UnionNode)
        with Vertical(classes="union-branch"):
            if self._shows_branch():
                yield self.make_field(node.branch_node(), bare=True)

    def _selection(self) -> Any:
        node = self.node
        assert isinstance(node, UnionNode)
        if not node.present:
            return Select.NULL if not node.required else node.active
        return NULL_OPTION if node.is_null else node.active

    @on(Select.Changed, ".branch-select")
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        node = self.node
        assert isinstance(node, UnionNode)
        if self.choose(event.value, node.select):
            self.refresh(recompose=True)
            self.call_after_refresh(self._focus_branch_select)

    def _focus_branch_select(self) -> None:
        for select in self.query(".branch-select"):  # none if the field was removed meanwhile
            select.focus()
