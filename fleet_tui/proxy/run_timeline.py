"""The run's timeline as it happens: the controller's events about calls (an agent's call
coming in, held, released, edited, sent to the env, answered or refused; the person's own
calls, resets and verdicts) and the agent's other requests (lists, reads), one row each.

`RunTimeline` is a listener of the controller (`controller.subscribe(timeline.on_event)`);
the proxy's server tells it the agent's other requests (`agent_request`). It keeps the latest
`TIMELINE_ROWS` rows; notes and scores live on the records (`SessionHistory.annotate`), so
the rows of a step show them as they are now.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime

from fleet_tui.session.timeline import TimelineRow, arguments_line
from fleet_tui.session_records import (
    CallAdded,
    Caller,
    CallFinished,
    CallNoted,
    CallRecord,
    CallStarted,
    CallStatus,
    CallUpdated,
    SessionEvent,
    Unmade,
    who,
)
from fleet_tui.text import one_line

TIMELINE_ROWS = 5000
"""Rows kept (the oldest go first): a long run must not grow the app without bound."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class RunTimeline:
    """The rows of the run so far; `on_change` is called (on any thread) when one is added."""

    def __init__(self, on_change: Callable[[], None] = lambda: None) -> None:
        self.rows: deque[TimelineRow] = deque(maxlen=TIMELINE_ROWS)
        self.on_change = on_change
        self._lock = threading.Lock()
        self._asked: dict[int, dict] = {}
        """Each held record's arguments when it was held (an edit is told against them)."""

    def snapshot(self) -> list[TimelineRow]:
        with self._lock:
            return list(self.rows)

    def add(self, row: TimelineRow) -> None:
        row.at = row.at or _now()
        with self._lock:
            self.rows.append(row)
        self.on_change()

    def agent_request(self, method: str, caller: str, detail: str = "") -> None:
        """An agent's request other than a tool call (its list calls, reads, prompts)."""
        self.add(TimelineRow("list", caller, method, one_line(detail, 120)))

    def on_event(self, event: SessionEvent) -> None:
        if isinstance(event, CallNoted):  # the step's rows show its note and score anew
            self.on_change()
        elif isinstance(event, CallAdded | CallUpdated | CallStarted | CallFinished):
            for row in _rows(event, self._asked):
                row.step = event.record.number
                self.add(row)


def _rows(
    event: CallAdded | CallUpdated | CallStarted | CallFinished, asked: dict[int, dict]
) -> list[TimelineRow]:
    """The rows one event about a record adds."""
    if isinstance(event, CallAdded):
        return _added(event.record, asked)
    row = _changed(event, asked)
    return [] if row is None else [row]


def _changed(
    event: CallUpdated | CallStarted | CallFinished, asked: dict[int, dict]
) -> TimelineRow | None:
    record = event.record
    by = who(record.caller, record.agent)
    if isinstance(event, CallUpdated):
        if record.status == CallStatus.HELD:
            asked.setdefault(record.number, record.arguments)
            return None
        before = asked.pop(record.number, None)
        held = f"held {record.held_s:.1f} s" if record.held_s is not None else ""
        if before is not None and before != record.arguments:
            detail = (
                f"asked {arguments_line(before, 50)} · sent {arguments_line(record.arguments, 50)}"
            )
            return TimelineRow("edited", str(Caller.YOU), record.tool, detail)
        return TimelineRow("released", str(Caller.YOU), record.tool, held)
    if isinstance(event, CallStarted):
        return TimelineRow("sent", by, record.tool, arguments_line(record.arguments))
    if record.unmade is not None:
        refuser = str(Caller.YOU) if record.unmade == Unmade.REFUSED else by
        return TimelineRow(str(record.unmade), refuser, record.tool, one_line(record.message, 120))
    if not record.is_call:  # a reset's or a verdict's record said it when it was added
        return None
    latency = f" in {record.latency_s:.2f} s" if record.latency_s is not None else ""
    return TimelineRow("result", by, record.tool, f"{record.status}{latency}")


def _added(record: CallRecord, asked: dict[int, dict]) -> list[TimelineRow]:
    """An agent's call came in (and is held), or a reset or a verdict was made; the person's
    own call gets its row when it is sent."""
    by = who(record.caller, record.agent)
    if record.tool == "<verify>":
        return [TimelineRow("verdict", by, str(record.arguments.get("task")), record.message)]
    if record.tool == "<reset>":
        return [TimelineRow("reset", by, record.tool, arguments_line(record.arguments))]
    if record.caller != Caller.AGENT:
        return []
    rows = [TimelineRow("request", by, record.tool, arguments_line(record.arguments))]
    if record.status == CallStatus.HELD:
        asked[record.number] = record.arguments
        rows.append(TimelineRow("held", by, record.tool, "waits for you"))
    return rows
