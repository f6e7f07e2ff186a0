"""A server's sampling request: the conversation it sends (shown as plain text: it is the
env's output) and a box where the person writes the assistant's reply, or declines."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static, TextArea

from fleet_tui.envs.server_requests import SampleRequest
from fleet_tui.text import clean, one_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.safe_text import literal


def conversation_text(request: SampleRequest) -> Text:
    """The system prompt and messages, each headed by its role; the text taken literally."""
    text = Text()
    if request.system_prompt:
        text.append("system\n", style="bold dim")
        text.append(clean(request.system_prompt) + "\n\n")
    for message in request.messages:
        text.append(f"{clean(message.role)}\n", style="bold")
        text.append(clean(message.text) + "\n\n")
    text.rstrip()
    return text


class SamplingScreen(ModalScreen[str | None]):
    """Dismisses with the reply's text, or None when the person declines."""

    HELP_AREA = "ask"
    BINDINGS = bindings_for("ask")

    def __init__(self, request: SampleRequest) -> None:
        super().__init__()
        self.request = request

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(classes="ask-box") as box:
            box.border_title = "The server asks for the assistant's reply"
            limit = f" · at most {request.max_tokens} tokens" if request.max_tokens else ""
            box.border_subtitle = literal(one_line(request.endpoint, 80) + limit)
            with VerticalScroll(classes="ask-conversation"):
                yield Static(conversation_text(request))
            yield Label("Your reply, as the assistant:")
            yield TextArea(id="ask-reply", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="ask-buttons"):
                yield Static("^s send  ^d or esc decline", classes="ask-keys")
                yield Button("Decline", id="decline", variant="error")
                yield Button("Send reply", id="accept", variant="success")

    def on_mount(self) -> None:
        self.query_one("#ask-reply", TextArea).focus()

    @on(Button.Pressed, "#accept")
    def action_accept(self) -> None:
        reply = self.query_one("#ask-reply", TextArea).text
        if not reply.strip():
            self.notify("Write a reply first, or decline.", severity="warning")
            return
        self.dismiss(reply)

    @on(Button.Pressed, "#decline")
    def action_decline(self) -> None:
        self.dismiss(None)

    def action_cancel(self) -> None:
        """Sampling has no cancel: escape declines."""
        self.dismiss(None)
