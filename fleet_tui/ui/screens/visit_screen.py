"""A call the server refused until the person opens a page (URL elicitation, error -32042):
the server's reason and the page's URL, to copy into a browser or open in one, then call
again. Nothing is opened unless asked."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from fleet_tui.browser import can_open_browser
from fleet_tui.envs.pages_to_visit import PageToVisit
from fleet_tui.text import one_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.url_actions import copy_url, open_url


class VisitScreen(ModalScreen[None]):
    """Shows the first page to open (and how many more the server listed in the result)."""

    HELP_AREA = "visit"
    BINDINGS = bindings_for("visit")

    def __init__(self, tool: str, pages: list[PageToVisit]) -> None:
        super().__init__()
        self.tool = tool
        self.page = pages[0]
        self.more = len(pages) - 1

    def compose(self) -> ComposeResult:
        with Vertical(classes="ask-box") as box:
            box.border_title = "Open a page"
            box.border_subtitle = literal(one_line(self.tool, 80))
            reason = f": {self.page.message}" if self.page.message else ""
            yield Static(
                literal(f"The server needs this page opened before {self.tool} can run{reason}"),
                classes="ask-message",
            )
            yield Static(literal(self.page.url), id="visit-url", classes="ask-url")
            more = f" It lists {self.more} more page(s) in the result." if self.more else ""
            yield Static(
                literal(f"Open it in a browser, then call again.{more}"), classes="ask-note"
            )
            with Horizontal(classes="ask-buttons"):
                yield Static("c copy  o open  esc close", classes="ask-keys")
                yield Button("Close", id="close")
                yield Button("Open in browser", id="open", disabled=not can_open_browser())
                yield Button("Copy URL", id="copy", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#copy", Button).focus()

    @on(Button.Pressed, "#copy")
    def action_copy_url(self) -> None:
        copy_url(self, self.page.url, "The page's URL")

    @on(Button.Pressed, "#open")
    async def action_open_browser(self) -> None:
        await open_url(self, self.page.url)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
