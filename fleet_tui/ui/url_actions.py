"""Copying a URL a server gave and opening it in a browser, for the dialogs that show one
(a sign-in, a page a call needs visited). A URL is never opened unless the person asks."""

from __future__ import annotations

import asyncio

from textual.screen import Screen

from fleet_tui.browser import open_browser


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
