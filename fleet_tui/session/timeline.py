"""A run's timeline: one row per thing that happened, in order, with who did it, and the
person's note and score on the step it belongs to.

The Agent pane builds its rows live (`proxy/run_timeline.py`); `timeline_of(session)` builds
them from a session file, for `fleet-tui export SESSION --timeline` (one JSON object a line).
A note event names the call (or unmade call) it is about by its seq; the latest note on a
step is the one kept.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fleet_tui.private_files import write_private
from fleet_tui.session.events import (
    CallEvent,
    NoteEvent,
    ResetEvent,
    ResultEvent,
    UnmadeEvent,
    VerifyEvent,
)
from fleet_tui.session.reader import Session
from fleet_tui.session_records import who
from fleet_tui.text import one_line


@dataclass
class TimelineRow:
    """One event of a run. `step` is the record (or, from a file, the seq of the call) it
    belongs to, which notes and scores are about."""

    kind: str
    """`request` (an agent's call came in), `held`, `released`, `edited`, `sent` (a call went
    to the env), `result`, `refused` (or `abandoned`, ...: never made), `reset`, `verdict`,
    `list` (an agent listed or read something)."""
    caller: str
    """`you`, `agent`, `agent NAME VERSION #SESSION`."""
    what: str
    """The tool (or method) it concerns."""
    detail: str = ""
    step: int | None = None
    at: str = ""
    note: str = ""
    score: int | None = None

    def as_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)


def score_mark(score: int | None) -> str:
    """`+1`, `0`, `-1`, or "" for a step not scored."""
    return "" if score is None else f"{score:+d}" if score else "0"


def arguments_line(arguments: dict[str, Any], width: int = 120) -> str:
    return one_line(json.dumps(arguments, ensure_ascii=False, default=str), width)


def write_timeline(rows: list[TimelineRow], path: Path) -> None:
    """One JSON object a line, in a file only its owner reads (notes may say anything)."""
    write_private(path, "".join(row.as_json() + "\n" for row in rows).encode())


def latest_notes(session: Session) -> dict[int, NoteEvent]:
    """The latest note on each call (or unmade call), by its seq."""
    return {e.step_seq: e for e in session.events if isinstance(e, NoteEvent) and e.step_seq}


def note_line(note: NoteEvent) -> str:
    """`note [+1] looks right`, as `replay` prints it under its step."""
    mark = score_mark(note.score)
    return one_line(f"note {f'[{mark}] ' if mark else ''}{note.note}", 300)


def timeline_of(session: Session) -> list[TimelineRow]:
    """The rows of a recorded session, each call's notes and score on its rows."""
    rows: list[TimelineRow] = []
    calls = {e.seq: e for e in session.events if isinstance(e, CallEvent)}
    notes = latest_notes(session)
    for event in session.events:
        rows.extend(_rows(event, calls))
    for row in rows:
        if row.step is not None and (note := notes.get(row.step)) is not None:
            row.note, row.score = note.note, note.score
    return rows


def _rows(event: Any, calls: dict[int, CallEvent]) -> list[TimelineRow]:
    """What one recorded event adds to the timeline."""
    if isinstance(event, CallEvent | UnmadeEvent):
        by = who(event.caller, event.agent)
        rows = []
        if event.held_s is not None:
            rows.append(TimelineRow("held", by, event.tool, f"{event.held_s:.1f} s", event.seq))
        if event.asked_arguments is not None:
            edited = f"asked {arguments_line(event.asked_arguments, 60)}"
            rows.append(TimelineRow("edited", "you", event.tool, edited, event.seq))
        if isinstance(event, UnmadeEvent):
            detail = one_line(event.message, 120)
            rows.append(TimelineRow(str(event.outcome), by, event.tool, detail, event.seq))
        else:
            detail = arguments_line(event.arguments)
            rows.append(TimelineRow("sent", by, event.tool, detail, event.seq))
        for row in rows:
            row.at = event.at
        return rows
    if isinstance(event, ResultEvent) and (call := calls.get(event.call_seq)):
        outcome = "error" if event.result.is_error else "ok"
        latency = f" in {event.result.latency_s:.2f} s" if event.result.latency_s else ""
        by = who(call.caller, call.agent)
        return [TimelineRow("result", by, call.tool, outcome + latency, call.seq, event.at)]
    if isinstance(event, ResetEvent):
        detail = "ok" if event.success else f"failed: {one_line(event.message, 100)}"
        return [TimelineRow("reset", "you", "<reset>", detail, at=event.at)]
    if isinstance(event, VerifyEvent):
        verdict = event.verdict
        detail = ("passed" if verdict.passed else "failed") if verdict.success else "did not run"
        what = event.task_key or "<verify>"
        return [TimelineRow("verdict", "you", what, detail, event.seq, event.at)]
    if isinstance(event, NoteEvent) and not event.step_seq:  # a note on a reset, say
        row = TimelineRow("note", "you", event.tool, at=event.at, note=event.note)
        row.score = event.score
        return [row]
    return []
