"""The session history: every call with its tool, arguments, status and latency; once an agent
called, whose each call is (for an agent's, which agent), how long it was held and whether the
person edited it. While its tab is not shown the table holds the rows of new and changed calls
and writes them when it is shown: a call then costs it no table work."""

from __future__ import annotations

import json

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from fleet_tui.controller import Caller, CallRecord, CallStatus
from fleet_tui.text import name_line, one_line
from fleet_tui.ui.keymap import bindings_for, marks_of
from fleet_tui.ui.widgets.in_place import SizedByContainer, is_displayed


def arguments_summary(record: CallRecord, limit: int = 60) -> str:
    if not record.arguments:
        return ""
    text = json.dumps(record.arguments, ensure_ascii=False, separators=(",", ":"), default=str)
    return one_line(text[1:-1], limit)


STATUS_STYLES = {
    CallStatus.OK: "green",
    CallStatus.ERROR: "bold red",
    CallStatus.FAILED: "bold red",
    CallStatus.RUNNING: "yellow",
    CallStatus.CANCELLED: "dim",
    CallStatus.HELD: "bold magenta",
}
CALLER_STYLES = {Caller.AGENT: "bold magenta", Caller.YOU: "cyan", Caller.PLAYBACK: "bold blue"}


def _notes(entry: CallRecord) -> str:
    """Whether the person edited the call, how long it was held, which agent made it (in
    that order: a narrow pane cuts the end)."""
    notes = ["edited"] if entry.asked_arguments is not None else []
    if entry.held_s is not None:
        notes.append(f"held {entry.held_s:.1f} s")
    if entry.agent is not None:
        notes.append(str(entry.agent))
    return " · ".join(notes)


class HistoryTable(DataTable, SizedByContainer):
    """Rows of CallRecord; posts `HistoryTable.Action` for show / rerun / load_args."""

    HELP_AREA = "history"
    BINDINGS = bindings_for("history")

    class Action(Message):
        def __init__(self, action: str, entry: CallRecord) -> None:
            super().__init__()
            self.action = action
            self.entry = entry

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.entries: dict[str, CallRecord] = {}
        self.agent_seen = False
        """An agent's call came: from then on every call says whose it is."""
        self._due: dict[str, None] = {}
        """The keys of calls whose rows are to be written (in order), when the table is shown."""

    def on_mount(self) -> None:
        self.tooltip = marks_of("History")
        self.add_column("#", key="number")
        self.add_column("call", key="call")

    def add_entry(self, entry: CallRecord) -> None:
        if entry.caller == Caller.AGENT and not self.agent_seen:
            self.agent_seen = True
            self._due.update(dict.fromkeys(self.entries))  # mark the person's calls as theirs
        key = str(entry.number)
        self.entries[key] = entry
        self._due[key] = None
        self._write_due_rows()

    def update_entry(self, entry: CallRecord) -> None:
        self._due[str(entry.number)] = None
        self._write_due_rows()

    def on_resize(self) -> None:  # also the first event of a table just shown (before Show)
        self._due.update(dict.fromkeys(self.entries))  # the cells fit the new width
        self.write_held_rows()

    def on_show(self) -> None:
        self.write_held_rows()

    def on_focus(self) -> None:  # keys typed as the tab is shown act on the rows
        self.write_held_rows()

    def write_held_rows(self) -> None:
        """The rows held while the tab was not shown, the cursor on the last; the result view
        keeps what it shows."""
        with self.prevent(DataTable.RowHighlighted):
            self._write_due_rows()

    def _write_due_rows(self) -> None:
        """Write the rows of calls added or changed since they were last written, if the table
        is in sight (a new call's row takes the cursor)."""
        if not self._due or not is_displayed(self):
            return
        added = False
        for key in self._due:
            cells = self._cells(self.entries[key])
            if key in self.rows:
                for column, value in zip(("number", "call"), cells, strict=True):
                    self.update_cell(key, column, value, update_width=True)
            else:
                self.add_row(*cells, key=key, height=2)
                added = True
        self._due.clear()
        if added:
            self.move_cursor(row=self.row_count - 1)

    def _cells(self, entry: CallRecord) -> list[Text]:
        """`#`, then the tool, status and latency over the arguments (or the message), after
        notes on an agent's call (edited, held, which agent)."""
        width = max(12, self.size.width - len(str(len(self.entries) or 1)) - 6)
        tail = Text()
        if self.agent_seen and entry.is_call:
            tail.append(f"  {entry.caller}", style=CALLER_STYLES[entry.caller])
        tail.append(f"  {entry.status}", style=STATUS_STYLES.get(entry.status, ""))
        if entry.latency_s is not None:
            tail.append(f" {entry.latency_s * 1000:.0f} ms", style="dim")
        call = Text(name_line(entry.tool, max(4, width - len(tail))))
        call.append_text(tail)
        call.append("\n")
        notes = one_line(_notes(entry), width)
        room = width - len(notes) - 3 if notes else width
        summary = arguments_summary(entry, room) or one_line(entry.message, room)
        call.append(notes, style="magenta")
        call.append(" · " if notes and summary and room > 3 else "", style="dim")
        call.append(summary if room > 3 else "", style="dim")
        return [Text(str(entry.number), style="dim"), call]

    def current(self) -> CallRecord | None:
        """The call under the cursor; while a new call's row is held, the last call (where the
        cursor goes when the row is written)."""
        if any(key not in self.rows for key in self._due):
            return self.entries[next(reversed(self.entries))]
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return self.entries.get(key or "")

    def _act(self, action: str) -> None:
        entry = self.current()
        if entry is not None:
            self.post_message(self.Action(action, entry))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._act("show")

    def action_show_entry(self) -> None:
        self._act("show")

    def action_rerun(self) -> None:
        self._act("rerun")

    def action_load_args(self) -> None:
        self._act("load_args")
