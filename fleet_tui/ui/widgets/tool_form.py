"""`ToolForm`: a tool's arguments as fields built from its JSON Schema, or as raw JSON.

The widget renders a `fleet_tui.forms.Form`: every edit goes into the model, the model is
validated after each edit and each error is shown under its field (errors of fields not on
screen are listed at the bottom). A toggle switches to a JSON editor of the whole arguments
object and back; both views edit the same model, and JSON that does not parse is reported and
kept as typed. ctrl+s posts `ToolForm.Submitted`.

Input that does not parse (bad JSON, `1e` in a number field) is never dropped: while there is
some, the form gives no arguments, does not submit and does not switch views; it points at the
input instead. (The JSON view cannot show a field's unparsed text faithfully: as a string it would
change its type, left out it would be lost at the first edit of the whole object.)
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Static, TextArea

from fleet_tui.forms import FieldError, Form, build_form
from fleet_tui.forms.node import Path
from fleet_tui.forms.typed_values import parse_json
from fleet_tui.forms.validation import error_line, path_text
from fleet_tui.text import one_line, pretty_json
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.widgets.field_preview import first_focusable
from fleet_tui.ui.widgets.form_fields import (
    FieldEdited,
    FieldWidget,
    field_for,
    fields_for,
    reveal,
)

MAX_LISTED_ERRORS = 8


class FormFields(VerticalScroll, can_focus=False):
    """The fields of the root object (or the single field of a non-object schema)."""

    DEFAULT_CSS = """
    FormFields { height: auto; max-height: 100%; }
    /* the scrollbar's place is kept, so showing it does not re-lay out every field */
    FormFields { scrollbar-gutter: stable; scrollbar-size-horizontal: 0; }
    FormFields > .no-arguments { color: $text-muted; }
    """

    class Below(Message):
        """How many fields are below the part of the form on screen changed."""

        def __init__(self, count: int) -> None:
            super().__init__()
            self.count = count

    def __init__(self, form: Form) -> None:
        super().__init__()
        self.form = form
        self._below = 0

    def fields_below(self) -> int:
        """How many fields (or section titles) start below the part on screen."""
        bottom = self.scroll_y + self.scrollable_content_region.height
        return sum(
            1
            for child in self.children
            if child.display
            and not child.has_class("no-arguments")
            and child.virtual_region.y >= bottom
        )

    def _count_below(self) -> None:
        count = self.fields_below() if self.is_attached else 0
        if count != self._below:
            self._below = count
            self.post_message(self.Below(count))

    def on_mount(self) -> None:
        # after every layout of the screen: the fields' places change in layouts that send
        # this scroll view no Resize (a field growing when arguments are loaded, say)
        self.screen.screen_layout_refresh_signal.subscribe(self, self._laid_out)

    def _laid_out(self, _screen: object) -> None:
        self._count_below()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.call_after_refresh(self._count_below)

    def compose(self) -> ComposeResult:
        root = self.form.root
        if root.kind != "object":
            yield field_for(root, bare=True)
            return
        children = root.children
        if not children:
            yield Static("This tool takes no arguments.", classes="no-arguments")
        yield from fields_for(children, field_for)


RAW_EDITOR = "#raw-editor"
"""The JSON editor of the raw view (a field's multi-line box is a TextArea too)."""


class ToolForm(Vertical, can_focus=False):
    """A form for a tool's arguments. Give it the tool's input schema (or a built `Form`)."""

    DEFAULT_CSS = """
    ToolForm { height: auto; max-height: 100%; }
    /* docked, so the fields' height (100%) is what is left beside them, not one line more */
    ToolForm > .tool-form-bar { height: auto; dock: top; }
    ToolForm > .tool-form-bar > .tool-form-mode {
        width: 1fr; height: 1; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis;
    }
    ToolForm > .tool-form-bar > .tool-form-below {
        width: auto; color: $accent; margin: 0 1; display: none;
    }
    ToolForm > .tool-form-bar > .tool-form-below.shown { display: block; }
    ToolForm > .tool-form-bar > Button { min-width: 10; }
    ToolForm > #raw-editor { height: auto; min-height: 6; max-height: 30; display: none; }
    ToolForm.raw-mode > #raw-editor { display: block; }
    ToolForm.raw-mode > FormFields { display: none; }
    ToolForm > .tool-form-raw-error { color: $error; display: none; height: auto; }
    ToolForm > .tool-form-raw-error.shown { display: block; }
    ToolForm > .tool-form-problems { color: $error; height: auto; display: none; dock: bottom; }
    ToolForm > .tool-form-problems.shown { display: block; }
    ToolForm > .tool-form-note { color: $warning; height: auto; }
    """

    BINDINGS = [
        Binding("ctrl+s", "submit", "Call"),
        Binding("ctrl+s", "submit('held')", "Release held call"),
        Binding("f4", "toggle_raw", "Raw"),
    ]

    class Submitted(Message):
        """The user asked to send these arguments (`errors` lists what is wrong with them)."""

        def __init__(self, arguments: Any, errors: list[FieldError]) -> None:
            super().__init__()
            self.arguments = arguments
            self.errors = errors

    def __init__(
        self, schema_or_form: Any, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.form = (
            schema_or_form if isinstance(schema_or_form, Form) else build_form(schema_or_form)
        )
        self.raw_mode = False
        self.releases_held = False
        """Set while the form holds an agent's held call: ctrl+s says it releases it."""
        self._raw_problem: str | None = None
        self.errors_by_path: dict[tuple, list[str]] = {}
        """The last validation's messages by field path; fields start out showing theirs."""
        self._shown: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        mode_line = self._mode_line(len(self._validate()))
        self._shown = {".tool-form-mode": mode_line.markup, ".tool-form-problems": ""}
        with Horizontal(classes="tool-form-bar"):
            yield Static(mode_line, classes="tool-form-mode")
            yield Static("", classes="tool-form-below")
            toggle = Button("{ } JSON", classes="toggle-raw", compact=True)
            toggle.can_focus = False  # f4 does the same; the first tab stop is the first field
            yield toggle
        if self.form.schema_problem:
            yield Static(literal(one_line(self.form.schema_problem, 300)), classes="tool-form-note")
        yield FormFields(self.form)
        yield Static("", classes="tool-form-raw-error")
        yield Static("", classes="tool-form-problems")

    def on_mount(self) -> None:
        self.call_after_refresh(self._show_first_errors)

    def _show_first_errors(self) -> None:
        # not if the form is being removed meanwhile (another tool was chosen): Textual marks
        # every node of a removal as pruning first, then removes the children one by one, so
        # some of the lines may already be gone
        if self.is_attached and not self._pruning:
            self.show_errors(validate=False)

    # -- the model's API, for whoever hosts the form ------------------------------------------

    def load(self, arguments: Any) -> None:
        """Fill the form (both views) from arguments."""
        self.form.load(arguments)
        self._raw_problem = None
        if self.raw_mode:
            self._set_raw_text(arguments)
        self._show_raw_problem()
        self.call_next(self._rebuild_fields)

    def focus_field(self, path: Path) -> None:
        """Focus the field at `path` once the fields a `load` rebuilds are there."""
        self.call_next(self._focus_field, path)

    def input_problem(self) -> FieldError | None:
        """The first input that does not parse (the JSON editor's text, or a field's)."""
        if self.raw_mode and self._raw_problem:
            return FieldError((), self._raw_problem)
        return next(iter(self.form.input_errors()), None)

    def value(self) -> Any:
        """The arguments; raises ValueError while some input does not parse (sending the rest
        would silently drop it)."""
        problem = self.input_problem()
        if problem is not None:
            raise ValueError(error_line(problem))
        return self.form.value()

    def errors(self) -> list[FieldError]:
        """What is wrong with the arguments, each at its field's path."""
        problems = (
            [FieldError((), self._raw_problem)] if self.raw_mode and self._raw_problem else []
        )
        return problems + self.form.errors()

    # -- actions -------------------------------------------------------------------------------

    def point_at_problem(self) -> None:
        """Show the input that does not parse, if any, and focus it."""
        problem = self.input_problem()
        if problem is None:
            return
        if self.raw_mode:
            self._show_raw_problem()
            self.query_one(RAW_EDITOR, TextArea).focus()
        else:
            self.show_errors()
            self.call_next(self._focus_field, problem.path)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "submit":
            return bool(parameters) == self.releases_held
        return True

    def action_submit(self, _held: str = "") -> None:
        """Post `Submitted` with the arguments (not while some input does not parse)."""
        if self._refused("Not sent"):
            return
        self.show_errors()
        self.post_message(self.Submitted(self.form.value(), self.form.errors()))

    async def action_toggle_raw(self) -> None:
        """Switch between the fields and the JSON editor (not while some input does not parse)."""
        if self._refused(f"Fix or clear it to see the {'fields' if self.raw_mode else 'raw JSON'}"):
            return
        if self.raw_mode:
            self.raw_mode = False
            await self._rebuild_fields()
            self._focus_first_field()
        else:
            self.raw_mode = True
            if not self.query_children(RAW_EDITOR):  # made on first use: it is slow to mount
                editor = TextArea(
                    language="json",
                    show_line_numbers=False,
                    tab_behavior="indent",
                    soft_wrap=True,
                    id=RAW_EDITOR[1:],
                )
                await self.mount(editor, before=self.query_one(".tool-form-raw-error"))
            self._set_raw_text(self.form.value())
            self.query_one(RAW_EDITOR, TextArea).focus()
        self.set_class(self.raw_mode, "raw-mode")
        self.show_errors()

    def _refused(self, title: str) -> bool:
        """Whether some input does not parse; if so, point at it and say what is wrong."""
        problem = self.input_problem()
        if problem is None:
            return False
        self.point_at_problem()
        self.app.bell()
        self.notify(one_line(error_line(problem), 300), title=title, severity="error", markup=False)
        return True

    def _mode_line(self, problems: int) -> Text:
        """`Fields (f4: raw JSON, ctrl+s: send)  2 problems`."""
        other = "fields" if self.raw_mode else "raw JSON"
        line = Text(f"{'Raw JSON' if self.raw_mode else 'Fields'}  (f4: {other}, ctrl+s: send)")
        if problems:
            line.append(f"  {problems} problem{'s' if problems > 1 else ''}", style="bold red")
        return line

    @on(Button.Pressed, ".toggle-raw")
    async def _toggle_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.action_toggle_raw()

    # -- keeping the views and the errors in sync ----------------------------------------------

    @on(FieldEdited)
    def _field_edited(self, event: FieldEdited) -> None:
        event.stop()
        self.show_errors()

    @on(FormFields.Below)
    def _fields_below(self, event: FormFields.Below) -> None:
        event.stop()
        count = event.count
        cue = f"{count} more field{'s' if count > 1 else ''} ↓" if count else ""
        line = self.query_one(".tool-form-below", Static)
        line.update(cue)
        line.set_class(bool(count), "shown")

    @on(TextArea.Changed, RAW_EDITOR)
    def _raw_edited(self, event: TextArea.Changed) -> None:
        event.stop()
        if not self.raw_mode:
            return
        text = event.text_area.text
        try:
            arguments = parse_json(text) if text.strip() else {}
        except ValueError as error:
            self._raw_problem = str(error)
        else:
            self._raw_problem = None
            self.form.load(arguments)
        self._show_raw_problem()
        self.show_errors()

    def _validate(self) -> list[FieldError]:
        errors = self.form.errors()
        self.errors_by_path = {}
        for error in errors:
            self.errors_by_path.setdefault(error.path, []).append(error.message)
        return errors

    def show_errors(self, *, validate: bool = True) -> None:
        """Validate (unless the last validation still holds) and put each error under its
        field; list the rest at the bottom. Only what changed is redrawn."""
        if validate:
            self._validate()
        by_path = dict(self.errors_by_path)
        count = sum(map(len, by_path.values())) + (1 if self.raw_mode and self._raw_problem else 0)
        self._update(".tool-form-mode", self._mode_line(count))
        if not self.raw_mode:
            for field in self.query(FieldWidget):
                field.show_error(by_path.pop(field.node.path, []))
                field.refresh_state()
        rest = [f"{path_text(path)}: {'; '.join(messages)}" for path, messages in by_path.items()]
        lines = rest[:MAX_LISTED_ERRORS]
        if len(rest) > len(lines):
            lines.append(f"… and {len(rest) - len(lines)} more")
        self._update(".tool-form-problems", literal("\n".join(lines))).set_class(
            bool(lines), "shown"
        )

    def _update(self, selector: str, text: Text) -> Static:
        """Show `text` in the child `selector` unless it already does (each update re-lays out)."""
        line = self.query_one(selector, Static)
        if self._shown.get(selector) != text.markup:
            self._shown[selector] = text.markup
            line.update(text)
        return line

    def _show_raw_problem(self) -> None:
        line = self.query_one(".tool-form-raw-error", Static)
        line.update(literal(self._raw_problem or ""))
        line.set_class(bool(self._raw_problem), "shown")

    def _set_raw_text(self, arguments: Any) -> None:
        editor = self.query_one(RAW_EDITOR, TextArea)
        with editor.prevent(TextArea.Changed):
            editor.text = pretty_json(arguments)

    async def _rebuild_fields(self) -> None:
        await self.query_one(FormFields).recompose()
        self.show_errors()

    async def _focus_field(self, path: Path) -> None:
        """Focus the field at `path`, first showing it if a closed group or section hides it."""
        fields = [f for f in self.query(FieldWidget) if f.node.path == path]
        if not fields:  # in a group never opened: the list under the form names it
            return
        field = fields[-1]  # the innermost (a union and its chosen branch share a path)
        await reveal(field)
        target = field if field.previewing else first_focusable(field)
        if target is not None:
            target.focus()

    def _focus_first_field(self) -> None:
        field = first_focusable(self.query_one(FormFields))
        if field is not None:
            field.focus()
