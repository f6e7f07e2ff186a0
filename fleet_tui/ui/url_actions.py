"""Copying a URL a server gave and opening it in a browser, for the dialogs that show one
(a sign-in, a page a call needs visited): `UrlDialog` is their shared part. A URL is never
opened unless the person asks."""

from __future__ import annotations

import asyncio

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from fleet_tui.browser import can_open_browser, open_browser


def copy_url(screen: Screen, url: str, what: str) -> None:
    """Put `url` in the clipboard, saying so (`what`: "The authorization URL", ...)."""
    screen.app.copy_to_clipboard(url)
    screen.notify(f"{what} is in the clipboard.", title="Copied", markup=False)


async def open_url(screen: Screen, url: str) -> None:
    """Open `url` in a graphical browser, or say there is none."""
    if not await asyncio.to_thread(open_browser, url):
        screen.notify(
            "No graphical browser here: copy the URL (c) into one.",
            severity="warning",
            markup=False,
        )


class UrlDialog(ModalScreen[None]):
    """A dialog showing a URL a server gave: `c` (or Copy URL) copies it, `o` (or Open in
    browser) opens it; a subclass sets `url` and `url_name`, and handles its close button."""

    url: str
    url_name: str
    """What the URL is, for the note once it is copied ("The authorization URL")."""

    def url_buttons(self, keys: str, close: str) -> ComposeResult:
        """The row of keys and buttons; `close` is the id (and, capitalised, the label) of the
        button that closes the dialog."""
        with Horizontal(classes="ask-buttons"):
            yield Static(keys, classes="ask-keys")
            yield Button(close.capitalize(), id=close)
            yield Button("Open in browser", id="open", disabled=not can_open_browser())
            yield Button("Copy URL", id="copy", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#copy", Button).focus()

    @on(Button.Pressed, "#copy")
    def action_copy_url(self) -> None:
        copy_url(self, self.url, self.url_name)

    @on(Button.Pressed, "#open")
    async def action_open_browser(self) -> None:
        await open_url(self, self.url)
