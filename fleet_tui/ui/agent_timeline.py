"""What the keys on the run's timeline do: show a step's call in the result view (as History
does), keep the person's note and score on it (on its record, so the session file records
them), and write the timeline with notes and scores as JSON lines in the current folder."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from fleet_tui.envs.base import ToolResult
from fleet_tui.proxy.run_timeline import RunTimeline
from fleet_tui.session.timeline import TimelineRow, write_timeline
from fleet_tui.session_history import SessionHistory
from fleet_tui.session_records import CallRecord
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.widgets.timeline_list import TimelineList


class TimelineKeys:
    """The timeline's keys, on `history`'s records; `show_call` shows one in the result view."""

    def __init__(
        self,
        app: AppServices,
        history: SessionHistory,
        timeline: RunTimeline,
        show_call: Callable[[CallRecord, ToolResult | None], Awaitable[None]],
        write_note: Callable[[CallRecord], None],
    ) -> None:
        self.app = app
        self.history = history
        self.timeline = timeline
        self.show_call = show_call
        self.write_note = write_note
        """Opens the note input on a step."""

    def record(self, step: int | None) -> CallRecord | None:
        records = self.history.records
        return records[step - 1] if step is not None and 0 < step <= len(records) else None

    def chosen(self, event: TimelineList.Chosen) -> None:
        if event.action == "export":
            self.export()
            return
        record = self.record(event.step)
        if record is None:
            self.app.notify("This row is about no call (an agent's list or read).")
        elif event.action == "show":
            self.app.call_later(self.show_call, record, record.result)
        elif event.action == "note":
            self.write_note(record)
        elif event.action == "score":
            self.history.annotate(record, score=event.score)

    def note(self, record: CallRecord, text: str) -> None:
        self.history.annotate(record, note=text)

    def export(self) -> None:
        """Write every row kept, with its step's note and score as they are now."""
        rows = [self._annotated(row) for row in self.timeline.snapshot()]
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = Path.cwd() / f"run-timeline-{stamp}.jsonl"
        try:
            write_timeline(rows, path)
        except OSError as error:
            reason = f"cannot write {path}: {error.strerror}"
            self.app.notify(reason, severity="error", markup=False)
            return
        self.app.notify(f"Wrote {path}: {len(rows)} rows.", markup=False, timeout=10)

    def _annotated(self, row: TimelineRow) -> TimelineRow:
        record = self.record(row.step)
        return row if record is None else replace(row, note=record.note, score=record.score)
