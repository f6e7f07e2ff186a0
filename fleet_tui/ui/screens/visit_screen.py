"""A call the server refused until the person opens a page (URL elicitation, error -32042):
the server's reason and the page's URL, to copy into a browser or open in one, then call
again. Nothing is opened unless asked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Button, Static

from fleet_tui.text import counted, one_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.url_actions import UrlDialog

if TYPE_CHECKING:  # the env's models load after the first frame
    from fleet_tui.envs.pages_to_visit import PageToVisit


class VisitScreen(UrlDialog):
    """Shows the first page to open (and how many more the server listed in the result)."""

    HELP_AREA = "visit"
    BINDINGS = bindings_for("visit")

    def __init__(self, tool: str, pages: list[PageToVisit]) -> None:
        super().__init__()
        self.tool = tool
        self.page = pages[0]
        self.more = len(pages) - 1
        self.url, self.url_name = self.page.url, "The page's URL"

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
            more = (
                f" It lists {counted(self.more, 'more page')} in the result." if self.more else ""
            )
            yield Static(
                literal(f"Open it in a browser, then call again.{more}"), classes="ask-note"
            )
            yield from self.url_buttons("c copy  o open  esc close", "close")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
