"""How long one tool call may run: a limit on silence, not on work.

A call fails once its server has neither answered nor reported progress for the limit's seconds
(each `notifications/progress` restarts the clock), so a long job that says how far it got is
never cut, and a silent one is. The limit is chosen per call (`--timeout`, the call form's
field) and reaches the adapter through a context variable set around the call, so every env
kind and wrapper keeps its plain `call_tool(name, arguments)`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

DEFAULT_CALL_TIMEOUT_S = 300.0
"""Seconds a call may go without an answer or a progress report, unless told otherwise."""

_NOT_SET: Any = object()
_limit: ContextVar[float | None] = ContextVar("call_limit", default=_NOT_SET)


@contextlib.contextmanager
def call_limit(seconds: float | None) -> Iterator[None]:
    """Calls made in this block may stay silent `seconds` (None: without limit)."""
    token = _limit.set(seconds)
    try:
        yield
    finally:
        _limit.reset(token)


def chosen_limit(default: float | None) -> float | None:
    """The limit set around the current call, else `default`."""
    chosen = _limit.get()
    return default if chosen is _NOT_SET else chosen


def parse_timeout(text: str) -> float | None:
    """A timeout given as text: seconds > 0, or 0 / "none" for no limit; ValueError in plain
    words otherwise."""
    if text.strip().lower() in {"0", "none", ""}:
        return None
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"{text!r}: give seconds above 0, or 0 for no limit")
    return seconds


def describe_limit(seconds: float | None) -> str:
    """`seconds` as a person reads a call's limit."""
    return "no time limit" if seconds is None else f"{seconds:g}s without an answer or progress"


class ProgressClock:
    """When a call last showed life: its start, or its latest progress report."""

    def __init__(self) -> None:
        self.last_heard = time.monotonic()

    def heard(self) -> None:
        self.last_heard = time.monotonic()
