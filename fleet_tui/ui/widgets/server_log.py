"""The servers' log messages (`notifications/message`): one line each, filtered by level.

Choosing a level shows the messages from that level up and posts `ServerLogPane.LevelChosen`,
on which the app asks the servers (logging/setLevel) to send only those. The pane keeps the
latest MAX_ENTRIES messages, and counts the older ones. Messages are added once a frame, in
batches (a server may send thousands a second).
"""

from __future__ import annotations

import time
from collections import deque

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import RichLog, Select, Static

from fleet_tui.envs.server_events import LEVELS, ServerLog, level_rank
from fleet_tui.text import clean, counted, shortened
from fleet_tui.ui.frame_batch import FrameBatch
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.tool_list import endpoint_labels

MAX_ENTRIES = 2000
"""Log messages kept (the oldest go first)."""

MAX_LINE_CHARS = 2000
"""Characters of one message shown (the session file keeps up to 64 KB of its data)."""

LEVEL_STYLES = {
    "debug": "dim",
    "info": "",
    "notice": "cyan",
    "warning": "yellow",
    "error": "red",
    "critical": "bold red",
    "alert": "bold red",
    "emergency": "bold reverse red",
}


def log_line(entry: ServerLog, endpoint: str = "") -> Text:
    """`HH:MM:SS level [endpoint] logger: text`, coloured by level."""
    style = LEVEL_STYLES.get(entry.level, "bold red")
    line = Text(time.strftime("%H:%M:%S ", time.localtime(entry.at)), style="dim")
    line.append(f"{clean(entry.level)[:9]:<7} ", style=style or "bold")
    if endpoint:
        line.append(f"{endpoint} ", style="dim cyan")
    if entry.logger:
        line.append(f"{clean(entry.logger)[:40]}: ", style="dim")
    line.append(shortened(clean(entry.text()), MAX_LINE_CHARS), style=style)
    return line


class ServerLogPane(Vertical):
    """A level filter over the latest log messages of the session's servers."""

    HELP_AREA = "log"
    BINDINGS = bindings_for("log")

    class LevelChosen(Message):
        """The person chose a level: show (and ask servers for) messages from it up."""

        def __init__(self, level: str) -> None:
            super().__init__()
            self.level = level

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: deque[ServerLog] = deque(maxlen=MAX_ENTRIES)
        self.received = 0
        """Messages received, including those no longer kept."""
        self.level = "debug"
        self._arriving = FrameBatch(self, self._add_batch, MAX_ENTRIES)
        self._endpoints: set[str] = set()
        self._empty_note = False
        """The lines hold the note saying what will appear, not messages."""

    def compose(self) -> ComposeResult:
        yield Select(
            [(f"from {level} up", level) for level in LEVELS],
            value=self.level,
            allow_blank=False,
            id="log-level",
        )
        yield RichLog(id="log-lines", markup=False, wrap=True, min_width=20, max_lines=MAX_ENTRIES)
        yield Static("No log messages yet.", id="log-count", markup=False)

    def add(self, entry: ServerLog) -> None:
        """Show `entry` with the next batch (at the next frame)."""
        self.received += 1
        self._arriving.add(entry)

    def _add_batch(self, batch: list[ServerLog]) -> None:
        self.entries.extend(batch)
        self._endpoints.update(entry.endpoint for entry in batch)
        self._write([entry for entry in batch if self._passes(entry)])
        self._count()

    def shown(self) -> list[ServerLog]:
        """The messages the filter lets through, oldest first."""
        return [entry for entry in self.entries if self._passes(entry)]

    def _passes(self, entry: ServerLog) -> bool:
        return level_rank(entry.level) >= level_rank(self.level)

    def _write(self, entries: list[ServerLog]) -> None:
        """Add `entries` to the lines shown, in one write (one render for the batch)."""
        if not entries:
            return
        if self._empty_note:
            self.query_one(RichLog).clear()
            self._empty_note = False
        labels = endpoint_labels(sorted(self._endpoints)) if len(self._endpoints) > 1 else {}
        lines = [log_line(entry, labels.get(entry.endpoint, "")) for entry in entries]
        self.query_one(RichLog).write(Text("\n").join(lines))

    def _count(self) -> None:
        shown = sum(1 for entry in self.entries if self._passes(entry))
        count = f"{shown}/{counted(len(self.entries), 'message')} from {self.level} up"
        if self.received > len(self.entries):
            count += f" (of {self.received:,} received; the older ones are dropped)"
        self.query_one("#log-count", Static).update(count, layout=False)  # one line, always

    def _rewrite(self) -> None:
        lines = self.query_one(RichLog)
        lines.clear()
        shown = self.shown()
        self._write(shown)
        if not shown:
            lines.write(Text(self._empty_text(), style="dim"))
            self._empty_note = True
        self._count()

    def _empty_text(self) -> str:
        """What will appear here, or why nothing does."""
        if self.entries:
            return f"Every message is below {self.level}: choose a lower level above."
        return (
            "No log messages yet. What the servers log (MCP notifications/message) appears "
            "here, from the level chosen above up; c clears."
        )

    @on(Select.Changed, "#log-level")
    def _level_changed(self, event: Select.Changed) -> None:
        event.stop()
        if not isinstance(event.value, str) or event.value == self.level:
            return
        self.level = event.value
        self._rewrite()
        self.post_message(self.LevelChosen(self.level))

    def on_resize(self) -> None:
        self._rewrite()  # lines wrap at the width they were written at

    def action_clear_log(self) -> None:
        self.entries.clear()
        self._endpoints.clear()
        self.received = 0
        self._rewrite()

    def focus_filter(self) -> None:
        self.screen.set_focus(self.query_one("#log-level", Select))
