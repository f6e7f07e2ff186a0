"""A server asks the person to sign in (OAuth): its authorization URL, to copy into a browser
or open in one, while the connection waits for the browser to come back. The dialog closes by
itself once it does; cancelling it gives the sign-in up."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Static

from fleet_tui.envs.server_requests import SignInRequest
from fleet_tui.text import clean, describe_seconds, one_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.url_actions import UrlDialog


class SignInScreen(UrlDialog):
    """Dismissed only when the person gives the sign-in up."""

    HELP_AREA = "sign_in"
    BINDINGS = bindings_for("sign_in")

    def __init__(self, request: SignInRequest) -> None:
        super().__init__()
        self.request = request
        self.url, self.url_name = request.url, "The authorization URL"

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(classes="ask-box") as box:
            box.border_title = "Sign in"
            box.border_subtitle = literal(one_line(request.endpoint, 80))
            yield Static(
                literal(
                    f"{request.endpoint} asks you to sign in (OAuth). Open this URL in a browser:"
                ),
                classes="ask-message",
            )
            yield Static(literal(clean(request.url)), id="sign-in-url", classes="ask-url")
            yield Static(
                literal(
                    f"fleet-tui waits up to {describe_seconds(request.timeout_s)} for the "
                    f"browser to come back to {request.redirect_uri}; this closes by itself "
                    "then."
                ),
                classes="ask-note",
            )
            yield from self.url_buttons("c copy  o open  esc cancel", "cancel")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
