"""Items that arrive faster than the screen is drawn (a server's log or progress flood), handed
on together at most once a frame, so the app does a frame's work per batch instead of a
layout per item and keeps pace with what it is sent."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

from textual.widget import Widget

T = TypeVar("T")

FRAME_S = 0.1
"""How long items gather before they are handed on together: ten batches a second read as
live, and each batch redraws what shows it."""


class FrameBatch(Generic[T]):
    """Gathers items for `flush(items)`, called once a frame on `owner`'s timer while items
    arrive. At most `bound` items wait; past that the oldest are dropped, counted in
    `dropped`."""

    def __init__(self, owner: Widget, flush: Callable[[list[T]], None], bound: int) -> None:
        self._owner = owner
        self._flush = flush
        self._waiting: deque[T] = deque(maxlen=bound)
        self._scheduled = False
        self.dropped = 0

    def add(self, item: T) -> None:
        if len(self._waiting) == self._waiting.maxlen:
            self.dropped += 1
        self._waiting.append(item)
        if not self._scheduled and self._owner.is_attached:
            self._scheduled = True
            self._owner.set_timer(FRAME_S, self._hand_on)

    def clear(self) -> None:
        """Drop the items still waiting (what they report is over)."""
        self._waiting.clear()

    def _hand_on(self) -> None:
        self._scheduled = False
        items = list(self._waiting)
        self._waiting.clear()
        if items and self._owner.is_attached:
            self._flush(items)
