"""The frame every field widget shares: the name line with the editor and the state buttons,
the notes line (help and errors), the painted preview, and how an edit reaches the node and the
form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Button, Static

from fleet_tui.forms import Node, RawNode, ScalarNode
from fleet_tui.text import one_line, visible
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.widgets.field_preview import (
    EditorLook,
    Palette,
    PreviewWidget,
    row_lines,
    wrapped,
)

STATE_BUTTONS = {"null": "set-null", "clear": "clear"}
"""The state buttons a field may have beside its name, by label, and their CSS classes."""

NodeT = TypeVar("NodeT", bound=Node)
"""The kind of form node a field widget edits."""


class FieldEdited(Message):
    """A field changed its node's value (or the shape of the form under it)."""


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


def _type_hint(node: Node) -> str:
    if isinstance(node, ScalarNode):
        return f"{node.kind} ({node.format})" if node.format else node.kind
    if isinstance(node, RawNode):
        return "JSON"
    return ""


class FieldWidget(PreviewWidget, Generic[NodeT]):
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

    def __init__(self, node: NodeT, *, bare: bool = False) -> None:
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

    def __call__(self, node: Node, *, bare: bool = False) -> FieldWidget[Any]: ...


class NestingField(FieldWidget[NodeT]):
    """A field with fields inside. It makes them with the `make_field` it is given: the
    factory, `field_for`, cannot be imported here, as it imports every kind of field."""

    def __init__(self, node: NodeT, make_field: FieldFactory, *, bare: bool = False) -> None:
        self.make_field = make_field
        super().__init__(node, bare=bare)
