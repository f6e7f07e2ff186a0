"""The selected tool: its name and description, its arguments form, and the Call button.

The form is the forms package's `ToolForm`. If it cannot be built for a tool (a schema broken
beyond what the form model tolerates, or too complex to validate), that tool gets a raw JSON
editor instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, ProgressBar, Static

from fleet_tui.envs.call_clock import DEFAULT_CALL_TIMEOUT_S, parse_timeout
from fleet_tui.envs.tool_hints import header_line
from fleet_tui.forms import build_form
from fleet_tui.forms.validation import error_line
from fleet_tui.text import clean, name_line, one_line, visible
from fleet_tui.ui.frame_batch import FrameBatch
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.field_preview import first_focusable
from fleet_tui.ui.widgets.in_place import set_content
from fleet_tui.ui.widgets.tool_description import ToolDescription

if TYPE_CHECKING:  # the env's models load after the app's first frame, the forms' widgets
    # (with TextArea) with the first form
    from fleet_tui.envs.base import Tool
    from fleet_tui.ui.widgets.raw_json_form import RawJsonForm
    from fleet_tui.ui.widgets.tool_form import ToolForm

TITLE_LIMIT = 60
"""The most of a tool's name the panel's title shows; a longer name is given whole at the top
of the description (f5 shows all of it)."""

Progress = tuple[float, float | None, str | None]
"""A progress report: progress, total, message."""


def build_form_widget(tool: Tool) -> ToolForm | RawJsonForm:
    """The form for a tool: ToolForm, or RawJsonForm when ToolForm cannot handle the schema
    or the schema is too complex to validate (then nothing checks the arguments here)."""
    from fleet_tui.ui.widgets.raw_json_form import RawJsonForm
    from fleet_tui.ui.widgets.tool_form import ToolForm

    try:
        form = build_form(tool.input_schema)
        if form.too_complex:
            return RawJsonForm(f"{form.too_complex}; type the arguments as JSON.")
        return ToolForm(form)
    except Exception as error:
        return RawJsonForm(f"No form for this schema ({error}); type the arguments as JSON.")


def form_arguments(form: ToolForm | RawJsonForm) -> dict[str, Any]:
    """The arguments a form holds; raises ValueError if it cannot give any."""
    value = form.value()
    if not isinstance(value, dict):
        raise ValueError("the form did not give a JSON object")
    return value


def form_errors(form: ToolForm | RawJsonForm) -> list[str]:
    """One line per problem: `path: message`."""
    return [error_line(error) for error in form.errors()]


class ToolPanel(Vertical):
    """The tool header, the form and the actions; posts `ToolPanel.CallRequested`."""

    HELP_AREA = "form"
    BINDINGS = bindings_for("form")

    class CallRequested(Message):
        """The user asked to call the current tool with the form's arguments."""

    def __init__(
        self, *, id: str | None = None, timeout_s: float | None = DEFAULT_CALL_TIMEOUT_S
    ) -> None:
        super().__init__(id=id)
        self.first_timeout = timeout_s
        """The call's time limit the panel starts with (`--timeout`)."""
        self.tool: Tool | None = None
        self.form: ToolForm | RawJsonForm | None = None
        self.release_held: Callable[[], None] | None = None
        """Set while an agent's held call is in the form: what Call does instead."""
        self.border_title = "Tool"
        self._progress: FrameBatch[Progress] = FrameBatch(self, self._show_latest_progress, 1)

    def compose(self) -> ComposeResult:
        yield ToolDescription("Pick a tool on the left.", id="tool-description")
        yield Vertical(id="form-holder")
        with Horizontal(id="call-progress"):
            yield ProgressBar(id="call-progress-bar", show_eta=False)
            yield Static("", id="call-progress-message", markup=False)
        with Horizontal(id="tool-actions"):
            yield Button("Call", id="call-button", variant="primary", disabled=True)
            yield Button("Copy as command", id="copy-button", disabled=True)
            yield Static("Timeout s", id="call-timeout-label")
            yield Input(
                "" if self.first_timeout is None else f"{self.first_timeout:g}",
                placeholder="none",
                id="call-timeout",
                tooltip="Cancel the call after this many seconds without an answer or a "
                "progress report (each report restarts the clock); empty or 0: no limit",
                compact=True,
            )
            yield Static("", id="call-state", markup=False)

    async def show_tool(self, tool: Tool, arguments: dict[str, Any] | None = None) -> None:
        """Show `tool`'s form, filled with `arguments` when given."""
        self.hold_call(None)
        self.tool = tool
        self.border_title = Text(name_line(tool.name, TITLE_LIMIT))
        self.border_subtitle = ""
        description = clean(tool.description or tool.title or "").strip() or "(no description)"
        if tool.broken is not None:
            description = f"Broken, cannot be called: {clean(tool.broken)}. {description}"
        elif (hints := header_line(tool)) is not None:
            description = f"{clean(hints)}\n{description}"
        if len(shown_name := visible(tool.name)) > TITLE_LIMIT:
            description = f"Name ({len(tool.name):,} characters): {shown_name}\n{description}"
        self.query_one(ToolDescription).show(description)
        holder = self.query_one("#form-holder", Vertical)
        await holder.remove_children()
        self.form = build_form_widget(tool)
        try:
            await holder.mount(self.form)
        except Exception as error:  # a form that fails while mounting: fall back for this tool
            from fleet_tui.ui.widgets.raw_json_form import RawJsonForm

            await holder.remove_children()
            self.form = RawJsonForm(f"No form for this schema ({error}); type JSON.")
            await holder.mount(self.form)
        if arguments is not None:
            self.load(arguments)
        for button in self.query(Button):
            button.disabled = False

    @property
    def releases_held(self) -> bool:
        return self.release_held is not None

    def hold_call(self, release: Callable[[], None] | None) -> None:
        """While an agent's held call is in the form, Call (ctrl+s, the button) runs `release`
        (it releases that call with the form's arguments), not a call of its own; None: Call
        calls again."""
        self.release_held = release
        held = release is not None
        self.query_one("#call-button", Button).label = "Release held call" if held else "Call"
        from fleet_tui.ui.widgets.tool_form import ToolForm

        if isinstance(self.form, ToolForm):
            self.form.releases_held = held
        self.app.refresh_bindings()

    def load(self, arguments: dict[str, Any]) -> None:
        """Fill the form from `arguments`."""
        if self.form is not None:
            self.form.load(arguments)

    def arguments(self) -> dict[str, Any]:
        """The form's arguments. Raises ValueError when it cannot give them, after pointing the
        user at the input at fault (text that does not parse is never silently left out)."""
        if self.form is None:
            raise ValueError("no tool selected")
        try:
            return form_arguments(self.form)
        except ValueError:
            self.form.point_at_problem()
            raise

    def call_timeout(self) -> float | None:
        """The call's time limit typed in the panel (None: no limit); ValueError, with the
        field focused, when it is not one."""
        field = self.query_one("#call-timeout", Input)
        try:
            return parse_timeout(field.value)
        except ValueError as error:
            field.focus()
            raise ValueError(f"Timeout: {error}") from None

    def problems(self) -> list[str]:
        return form_errors(self.form) if self.form is not None else []

    def focus_form(self) -> None:
        """Focus the form's first field (or the Call button when the form has none)."""
        field = first_focusable(self.query_one("#form-holder", Vertical))
        (field or self.query_one("#call-button", Button)).focus()

    def action_toggle_description(self) -> None:
        self.query_one(ToolDescription).toggle()

    def on_tool_form_submitted(self, event: Message) -> None:
        event.stop()
        self.post_message(self.CallRequested())

    def set_state(self, text: str) -> None:
        set_content(self.query_one("#call-state", Static), text)

    def mark_gone(self) -> None:
        """The tool is no longer offered (its form stays, to copy what was typed)."""
        self.border_subtitle = "no longer offered by its server"

    def show_progress(self, progress: float, total: float | None, message: str | None) -> None:
        """The server's progress report for the running call (no total: the bar pulses),
        shown at the next frame: a server may report thousands a second."""
        self._progress.add((progress, total, message))

    def _show_latest_progress(self, reports: list[Progress]) -> None:
        progress, total, message = reports[-1]
        self.query_one("#call-progress").display = True
        self.query_one(ProgressBar).update(total=total, progress=progress)
        text = one_line(message or "", 200) or f"{progress:g}" + (f"/{total:g}" if total else "")
        self.query_one("#call-progress-message", Static).update(text)

    def hide_progress(self) -> None:
        self._progress.clear()
        shown = self.query_one("#call-progress")
        if shown.display:  # most calls report no progress: nothing to hide
            shown.display = False
            self.query_one(ProgressBar).update(total=None, progress=0)

    @on(Button.Pressed, "#call-button")
    def _call(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.CallRequested())

    @on(Button.Pressed, "#copy-button")
    async def _copy(self, event: Button.Pressed) -> None:
        event.stop()
        await self.app.run_action("copy_command")
