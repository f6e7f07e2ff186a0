"""A line for what servers ask the person (elicitation, sampling): a server may send a thousand
requests at once, and a dialog each would freeze the app. At most MAX_OPEN are asked at a
time; up to MAX_WAITING more wait their turn (counted, so the person sees them); past that a
request is refused at once, and the server gets a JSON-RPC error saying why.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

MAX_OPEN = 3
"""Server requests asked (a dialog each) at the same time."""
MAX_WAITING = 100
"""Server requests waiting for a dialog; past this, new ones are refused."""


class RequestRefused(Exception):
    """Too many requests already wait for the person."""


class RequestLine:
    """Asks at most `max_open` requests at a time; `on_waiting(count)` hears how many wait."""

    def __init__(
        self,
        on_waiting: Callable[[int], None] = lambda _count: None,
        max_open: int = MAX_OPEN,
        max_waiting: int = MAX_WAITING,
    ) -> None:
        self._open = asyncio.Semaphore(max_open)
        self._max_waiting = max_waiting
        self._on_waiting = on_waiting
        self.waiting = 0
        self.refused = 0
        """Requests refused so far (the line was full)."""

    async def ask(self, asking: Callable[[], Awaitable[T]]) -> T:
        """`asking()`'s answer once a place is free; RequestRefused when the line is full."""
        if self._open.locked() and self.waiting >= self._max_waiting:
            self.refused += 1
            raise RequestRefused(
                f"{self.waiting} requests already wait for the person at the client; "
                "this one is refused (ask again later)"
            )
        self._count(+1)
        try:
            await self._open.acquire()
        finally:
            self._count(-1)
        try:
            return await asking()
        finally:
            self._open.release()

    def _count(self, change: int) -> None:
        self.waiting += change
        self._on_waiting(self.waiting)
