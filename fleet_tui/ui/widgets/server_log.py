"""The servers' log messages (`notifications/message`): one line each, filtered by level.

Choosing a level shows the messages from that level up and posts `ServerLogPane.LevelChosen`,
on which the app asks the servers (logging/setLevel) to send only those. The pane keeps the
latest MAX_ENTRIES messages.
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
from fleet_tui.text import clean, shortened
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
        self.level = "debug"

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
        self.entries.append(entry)
        if self._passes(entry):
            self.query_one(RichLog).write(log_line(entry, self._label(entry)))
        self._count()

    def shown(self) -> list[ServerLog]:
        """The messages the filter lets through, oldest first."""
        return [entry for entry in self.entries if self._passes(entry)]

    def _passes(self, entry: ServerLog) -> bool:
        return level_rank(entry.level) >= level_rank(self.level)

    def _label(self, entry: ServerLog) -> str:
        endpoints = sorted({e.endpoint for e in self.entries})
        return endpoint_labels(endpoints)[entry.endpoint] if len(endpoints) > 1 else ""

    def _count(self) -> None:
        shown = len(self.shown())
        self.query_one("#log-count", Static).update(
            f"{shown}/{len(self.entries)} messages from {self.level} up"
        )

    def _rewrite(self) -> None:
        lines = self.query_one(RichLog)
        lines.clear()
        for entry in self.shown():
            lines.write(log_line(entry, self._label(entry)))
        self._count()

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
        self._rewrite()

    def focus_filter(self) -> None:
        self.screen.set_focus(self.query_one("#log-level", Select))
