"""The recorded sessions in a folder, newest first, each told in one row: its target, how many
calls it made, its verdicts, how many notes and scores the person left, and when it was last
written. Only the lines that tell these are
parsed, so listing a folder of large sessions stays quick."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from fleet_tui.session.events import EVENT_ADAPTER, ConnectEvent, VerifyEvent

LISTED_AT_MOST = 200


@dataclass(frozen=True)
class SessionSummary:
    path: Path
    written: datetime
    target: str
    calls: int
    passed: int
    failed: int
    notes: int = 0
    """The person's notes and scores on steps (each change counts)."""

    @property
    def verdicts(self) -> str:
        """`2 pass · 1 fail`, or `-` when no verifier ran."""
        told = [f"{n} {word}" for n, word in ((self.passed, "pass"), (self.failed, "fail")) if n]
        return " · ".join(told) or "-"

    def matches(self, query: str) -> bool:
        """Whether `query` (any case) is in the target or the file's name."""
        query = query.casefold()
        return query in self.target.casefold() or query in self.path.name.casefold()


def recent_sessions(folder: Path) -> list[SessionSummary]:
    """The sessions (`*.jsonl`) in `folder`, newest first (at most LISTED_AT_MOST); files that
    cannot be read are left out."""
    files: list[tuple[float, Path]] = []
    for path in folder.glob("*.jsonl"):
        try:
            files.append((path.stat().st_mtime, path))
        except OSError:
            continue
    files.sort(reverse=True)
    summaries = []
    for written, path in files[:LISTED_AT_MOST]:
        try:
            summaries.append(summarize(path, datetime.fromtimestamp(written)))
        except OSError:
            continue
    return summaries


def summarize(path: Path, written: datetime) -> SessionSummary:
    target, calls, passed, failed, notes = "?", 0, 0, 0, 0
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            head = line[:80]
            if '"event":"call"' in head:
                calls += 1
            elif '"event":"note"' in head:
                notes += 1
            elif '"event":"connect"' in head or '"event":"verify"' in head:
                try:
                    event = EVENT_ADAPTER.validate_json(line)
                except ValidationError:
                    continue
                if isinstance(event, ConnectEvent) and event.target is not None:
                    target = event.target.describe()
                elif isinstance(event, VerifyEvent):
                    passed += event.verdict.passed
                    failed += not event.verdict.passed
    return SessionSummary(path, written, target, calls, passed, failed, notes)
