"""Opening a URL in the person's browser, only where that is safe: a graphical browser on a
desktop (macOS, Windows, or a display elsewhere), never a text browser that would take over the
terminal fleet-tui draws on."""

from __future__ import annotations

import os
import sys

TEXT_BROWSERS = ("www-browser", "links", "elinks", "lynx", "w3m")


def can_open_browser() -> bool:
    """Whether a graphical browser can open: macOS, Windows, or a display on other systems."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_browser(url: str) -> bool:
    """Open `url` in the default graphical browser; whether one was started (slow at times:
    call it in a thread)."""
    import webbrowser

    if not can_open_browser():
        return False
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if getattr(browser, "name", "") in TEXT_BROWSERS:
        return False
    return browser.open(url)
