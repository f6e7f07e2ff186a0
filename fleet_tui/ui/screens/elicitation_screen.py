"""A server's elicitation: a form built from the schema it asks for (or, in URL mode, the URL
it asks the person to visit, never opened from here), answered with accept, decline or cancel."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from fleet_tui.envs.server_requests import ElicitAnswer, ElicitRequest
from fleet_tui.forms.validation import error_line
from fleet_tui.text import one_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.widgets.field_preview import first_focusable
from fleet_tui.ui.widgets.tool_form import ToolForm


class ElicitationScreen(ModalScreen[ElicitAnswer]):
    """Dismisses with the person's `ElicitAnswer`."""

    HELP_AREA = "ask"
    BINDINGS = bindings_for("ask")

    def __init__(self, request: ElicitRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(classes="ask-box") as box:
            box.border_title = "The server asks"
            box.border_subtitle = literal(one_line(request.endpoint, 80))
            yield Static(literal(request.message), classes="ask-message")
            if request.url_mode:
                yield Static(literal(request.url or ""), classes="ask-url")
                yield Static(
                    "fleet-tui does not open it: copy it into a browser if you trust it. "
                    "Accept tells the server you will.",
                    classes="ask-note",
                )
            else:
                yield ToolForm(request.schema, id="ask-form")
            with Horizontal(classes="ask-buttons"):
                yield Static("^s accept  ^d decline  esc cancel", classes="ask-keys")
                yield Button("Cancel", id="cancel")
                yield Button("Decline", id="decline", variant="error")
                yield Button("Accept", id="accept", variant="success")

    def on_mount(self) -> None:
        field = first_focusable(self.query_one("#ask-form")) if not self.request.url_mode else None
        (field or self.query_one("#accept", Button)).focus()

    @on(ToolForm.Submitted)
    def _submitted(self, event: ToolForm.Submitted) -> None:
        event.stop()
        self.action_accept()

    @on(Button.Pressed, "#accept")
    def action_accept(self) -> None:
        if self.request.url_mode:
            self.dismiss(ElicitAnswer("accept"))
            return
        form = self.query_one(ToolForm)
        try:
            content = form.value()
        except ValueError as error:
            form.point_at_problem()
            self.notify(one_line(str(error), 300), severity="error", markup=False)
            return
        errors = form.errors()
        if errors:
            form.show_errors()
            lines = "\n".join(one_line(error_line(e), 200) for e in errors[:5])
            self.notify(lines, title="Not sent", severity="error", markup=False)
            return
        self.dismiss(ElicitAnswer("accept", content))

    @on(Button.Pressed, "#decline")
    def action_decline(self) -> None:
        self.dismiss(ElicitAnswer("decline"))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(ElicitAnswer("cancel"))
