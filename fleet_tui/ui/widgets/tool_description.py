"""A tool's description, capped to a few lines; a click (or f5) shows the whole text."""

from __future__ import annotations

import inspect

from rich.console import Console
from rich.text import Text
from textual import events
from textual.reactive import reactive
from textual.widget import Widget

from fleet_tui.text import clean

COLLAPSED_LINES = 2
MORE = " ▸ more (f5)"
LESS = " ▴ less"


def capped(console: Console, text: str, width: int, lines: int) -> tuple[Text, bool]:
    """`text` wrapped at `width` and cut to `lines` lines with a "more" mark; and whether it was
    cut."""
    body = Text(text)
    wrapped = body.wrap(console, width)
    if len(wrapped) <= lines:
        return body, False
    shown = Text("\n").join(wrapped[:lines])
    keep = max(0, width - len(MORE) - 1)
    last = wrapped[lines - 1].plain.rstrip()
    if len(last) > keep:
        cut = len(shown.plain) - len(wrapped[lines - 1].plain) + keep
        shown = shown[:cut]
    shown.rstrip()
    shown.append("…")
    shown.append(MORE, style="bold")
    return shown, True


class ToolDescription(Widget):
    """The description text (untrusted: cleaned, never markup)."""

    DEFAULT_CSS = "ToolDescription { height: auto; }"

    expanded: reactive[bool] = reactive(False, layout=True)
    text: reactive[str] = reactive("", layout=True)

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(ToolDescription.text, text)

    def show(self, text: str) -> None:
        self.text = inspect.cleandoc(clean(text))  # docstring indentation is not content
        self.expanded = False

    def toggle(self) -> None:
        self.expanded = not self.expanded

    def render(self) -> Text:
        width = max(self.size.width, 10)
        short, cut = capped(self.app.console, self.text, width, COLLAPSED_LINES)
        if not (cut and self.expanded):
            return short
        full = Text(self.text)
        full.append(LESS, style="bold")
        return full

    def on_resize(self) -> None:
        self.refresh(layout=True)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.toggle()
