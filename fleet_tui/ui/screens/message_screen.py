"""One entry of the protocol log: what it was, and its message as pretty JSON, its long strings
(base64 pictures, whole files) cut in the middle until x shows them as kept."""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from fleet_tui.envs.traffic import TrafficEntry
from fleet_tui.text import elided_strings, one_line, pretty_json
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.text_pager import PagerText, TextPager


def entry_heading(entry: TrafficEntry) -> str:
    """`in response tools/call #4 · 12 ms · 1.2 KB · http://... · 12:00:01`."""
    parts = [f"{entry.direction} {entry.kind} {entry.method}".strip()]
    if entry.id is not None:
        parts[0] += f" #{entry.id}"
    if entry.status is not None:
        parts.append(f"HTTP {entry.status}")
    if entry.latency_s is not None:
        parts.append(f"{entry.latency_s * 1000:.0f} ms")
    parts.append(f"{entry.size_bytes} bytes")
    if entry.truncated and isinstance(entry.message, str):
        parts.append("cut short: only its start is kept")
    elif entry.truncated:
        parts.append("long strings kept as their start and end")
    parts += [entry.endpoint, time.strftime("%H:%M:%S", time.localtime(entry.at))]
    return one_line(" · ".join(parts), 400)


SHOWN_STRING_CHARS = 200
"""Characters shown of each longer string until the strings are shown whole."""


def message_text(message: object, whole: bool) -> str:
    """The message as pretty JSON, its strings longer than SHOWN_STRING_CHARS cut in the
    middle unless `whole` (a message kept as text, cut short, as it is)."""
    if isinstance(message, str):
        return message
    return pretty_json(message if whole else elided_strings(message, SHOWN_STRING_CHARS))


class MessageScreen(ModalScreen[None]):
    """A protocol log entry as pretty JSON (redacted); x shows long strings whole; esc
    closes."""

    HELP_AREA = "message"
    BINDINGS = bindings_for("message")
    DEFAULT_CSS = """
    MessageScreen { align: center middle; }
    MessageScreen > Vertical {
        width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1;
    }
    MessageScreen #message-heading { height: auto; color: $accent; }
    """

    def __init__(self, entry: TrafficEntry) -> None:
        super().__init__()
        self.entry = entry
        self.whole = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(entry_heading(self.entry), id="message-heading", markup=False)
            yield TextPager(
                PagerText.build(message_text(self.entry.message, self.whole)), id="message-json"
            )
        yield Footer()

    def action_toggle_strings(self) -> None:
        self.whole = not self.whole
        text = message_text(self.entry.message, self.whole)
        self.query_one(TextPager).set_text(PagerText.build(text))

    def on_mount(self) -> None:
        self.query_one(TextPager).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    @property
    def text(self) -> str:
        return self.query_one(TextPager).text
