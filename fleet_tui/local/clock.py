"""A per-instance logical clock, so the same calls after the same reset stamp the same times.

A reset starts the clock at the reset request's `timestamp` (Unix seconds) or, without one,
at the seed data's epoch: the newest `*_at` timestamp in the seed database plus one minute.
Each state-changing tool call takes one tick: it is stamped with the clock's time, and the
clock moves on by `STEP` for the next one.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta

STEP = timedelta(minutes=1)
"""How far the clock moves per state-changing tool call."""

FORMAT = "%Y-%m-%dT%H:%M:%SZ"
"""How the bundled envs write times (ISO 8601, UTC, whole seconds)."""

FALLBACK_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
"""The epoch of a seed database holding no timestamps."""


def format_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime(FORMAT)


def seed_epoch(conn: sqlite3.Connection) -> datetime:
    """One minute after the newest timestamp in any `*_at` column of the database."""
    newest: datetime | None = None
    tables = conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    for (table,) in tables:
        columns = [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]
        for column in (name for name in columns if name.endswith("_at")):
            for (value,) in conn.execute(f'SELECT DISTINCT "{column}" FROM "{table}"'):
                moment = _parse(value)
                if moment is not None and (newest is None or moment > newest):
                    newest = moment
    return newest + STEP if newest is not None else FALLBACK_EPOCH


def _parse(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class LogicalClock:
    """Thread-safe: tools run in worker threads."""

    def __init__(self, epoch: datetime) -> None:
        self.epoch = epoch
        self._now = epoch
        self._lock = threading.Lock()

    def restart(self, timestamp: int | None = None) -> None:
        """Start again at `timestamp` (Unix seconds), or at the epoch."""
        start = self.epoch if timestamp is None else datetime.fromtimestamp(timestamp, UTC)
        with self._lock:
            self._now = start

    def tick(self) -> str:
        """Stamp one state-changing call: the current time; the clock then moves on a step."""
        with self._lock:
            stamp, self._now = self._now, self._now + STEP
        return format_time(stamp)
