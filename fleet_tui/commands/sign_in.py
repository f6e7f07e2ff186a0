"""A headless command's OAuth sign-in: the authorization URL on stderr, and a browser opened
on it when that is safe (a terminal on a desktop, never a text browser in the terminal)."""

from __future__ import annotations

import asyncio
import os
import sys

from fleet_tui.commands.output import err
from fleet_tui.envs.oauth_callback import describe_seconds
from fleet_tui.envs.server_requests import SignInRequest

TEXT_BROWSERS = ("www-browser", "links", "elinks", "lynx", "w3m")
"""Browsers that would take over the terminal fleet-tui writes to."""


async def show_sign_in(request: SignInRequest) -> None:
    """Print where to sign in, open a browser there if that is safe, and wait (the sign-in
    cancels this when the browser comes back or the wait ends)."""
    err(f"{request.endpoint} asks you to sign in (OAuth). Open this URL in a browser:")
    err(f"  {request.url}")
    err(
        f"Waiting up to {describe_seconds(request.timeout_s)} for the browser to come back to "
        f"{request.redirect_uri} (Ctrl+C gives up)"
    )
    if sys.stderr.isatty() and has_desktop():
        await asyncio.to_thread(open_browser, request.url)
    await asyncio.Event().wait()


def has_desktop() -> bool:
    """Whether a graphical browser can open: macOS, Windows, or a display on other systems."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_browser(url: str) -> None:
    """Open `url` in the default graphical browser, if there is one; never a text browser."""
    import webbrowser

    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return
    if getattr(browser, "name", "") in TEXT_BROWSERS:
        return
    browser.open(url)
