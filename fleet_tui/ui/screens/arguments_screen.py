"""Ask for the arguments of a prompt or the values of a resource template: a form built by the
form builder from their schema, with the server's completions for the field being typed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from fleet_tui.envs.base import EnvError
from fleet_tui.text import clean, one_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.widgets.field_preview import first_focusable
from fleet_tui.ui.widgets.form_fields import FieldEdited
from fleet_tui.ui.widgets.tool_form import ToolForm, error_line

Complete = Callable[[str, str, dict[str, str]], Awaitable[list[str]]]
"""(argument, value typed so far, the other arguments) -> the server's suggestions."""


class CompletingForm(ToolForm):
    """A ToolForm that also tells its screen when a field changed."""

    class Edited(Message):
        """A field of the form changed."""

    @on(FieldEdited)
    def _tell_screen(self, _event: FieldEdited) -> None:
        self.post_message(self.Edited())


class ArgumentsScreen(ModalScreen[dict[str, str] | None]):
    """Dismisses with the arguments as strings (empty ones left out), or None when cancelled."""

    HELP_AREA = "arguments"
    BINDINGS = bindings_for("arguments")
    DEFAULT_CSS = """
    ArgumentsScreen { align: center middle; }
    ArgumentsScreen > Vertical {
        width: 80; height: auto; max-height: 90%; border: round $accent; background: $surface;
        padding: 1 2;
    }
    ArgumentsScreen #arguments-about { color: $text-muted; height: auto; }
    ArgumentsScreen #suggestions { height: auto; max-height: 8; display: none; }
    ArgumentsScreen #suggestions.shown { display: block; }
    ArgumentsScreen Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    """

    def __init__(
        self, title: str, about: str, schema: dict[str, Any], action: str, complete: Complete
    ) -> None:
        super().__init__()
        self.title_text = title
        self.about = about
        self.schema = schema
        self.action_label = action
        self.complete = complete
        self._values: dict[str, Any] = {}
        self._suggesting: str | None = None
        self._suggested: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = literal(one_line(self.title_text, 70))
            if self.about:
                yield Static(literal(one_line(self.about, 300)), id="arguments-about")
            yield CompletingForm(self.schema, id="arguments-form")
            suggestions = OptionList(id="suggestions")
            suggestions.can_focus = False  # the field keeps the focus: tab or enter takes one
            yield suggestions
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button(self.action_label, id="submit", variant="primary")

    def on_mount(self) -> None:
        self._values = dict(self.form.form.value() or {})

    @property
    def form(self) -> CompletingForm:
        return self.query_one(CompletingForm)

    @on(CompletingForm.Edited)
    def _edited(self) -> None:
        values = dict(self.form.form.value() or {})
        changed = [key for key, value in values.items() if self._values.get(key) != value]
        self._values = values
        if changed:
            key = changed[0]
            context = {k: str(v) for k, v in values.items() if k != key and v is not None}
            value = str(values.get(key) or "")
            self.run_worker(self._suggest(key, value, context), group="complete", exclusive=True)

    async def _suggest(self, key: str, value: str, context: dict[str, str]) -> None:
        try:
            values = await self.complete(key, value, context)
        except EnvError as error:
            self.notify(f"No completions: {error.message}", severity="warning", markup=False)
            values = []
        suggestions = self.query_one("#suggestions", OptionList)
        suggestions.clear_options()
        suggestions.add_options(
            [Option(Text(f"{key} = {one_line(v, 60)}"), id=str(i)) for i, v in enumerate(values)]
        )
        self._suggesting = key
        self._suggested = values
        suggestions.set_class(bool(values), "shown")
        if values:
            suggestions.highlighted = 0
        self.refresh_bindings()

    @property
    def _suggestions(self) -> OptionList:
        return self.query_one("#suggestions", OptionList)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The suggestion keys act only while suggestions are shown (else tab moves on and
        enter submits, as anywhere)."""
        if action in {"accept_suggestion", "move_suggestion"}:
            return self._suggestions.has_class("shown") and bool(self._suggested)
        return True

    def action_move_suggestion(self, step: int) -> None:
        suggestions = self._suggestions
        current = suggestions.highlighted or 0
        suggestions.highlighted = (current + step) % max(1, suggestions.option_count)

    def action_accept_suggestion(self) -> None:
        highlighted = self._suggestions.highlighted
        if highlighted is not None:
            self._take(highlighted)

    @on(OptionList.OptionSelected, "#suggestions")
    def _pick(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self._take(int(event.option.id))

    def _take(self, index: int) -> None:
        """Put suggestion `index` in its field, hide the list, and keep the focus there."""
        key = self._suggesting
        if key is None or not 0 <= index < len(self._suggested):
            return
        self._values = {**self._values, key: self._suggested[index]}
        self.form.load(self._values)
        self.form.focus_field((key,))  # the load draws the fields again
        self._suggestions.set_class(False, "shown")
        self._suggested = []
        self.refresh_bindings()

    @on(ToolForm.Submitted)
    @on(Button.Pressed, "#submit")
    def _submit(self, event: Message) -> None:
        event.stop()
        try:
            values = self.form.value() or {}
        except ValueError as error:
            self.notify(clean(str(error)), severity="error", markup=False)
            return
        errors = self.form.errors()
        if errors:
            self.form.show_errors()
            self.notify(error_line(errors[0]), severity="error", markup=False)
            if (field := first_focusable(self.form)) is not None:
                field.focus()
            return
        self.dismiss({k: str(v) for k, v in values.items() if v is not None and v != ""})

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
