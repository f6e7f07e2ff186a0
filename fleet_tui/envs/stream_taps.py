"""Streams that show each message to a tap as it passes: how the protocol log sees every
JSON-RPC message of a session, whichever transport opened it (`ClientHandlers.streams`); and a
read stream that changes each message as it passes (`envs/result_screen.py`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any


class _Tapped:
    def __init__(self, inner: Any, tap: Callable[[str, Any], None]) -> None:
        self._inner = inner
        self._tap = tap

    def _show(self, direction: str, item: Any) -> None:
        """Show `item` to the tap; a log that fails must not break the connection."""
        with contextlib.suppress(Exception):
            self._tap(direction, item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)


class ChangedRead(_Tapped):
    """A transport's read stream whose items pass through `change` as they are received."""

    def __init__(self, inner: Any, change: Callable[[Any], Any]) -> None:
        super().__init__(inner, lambda _direction, _item: None)
        self._change = change

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        return self._change(await self._inner.receive())

    def __aiter__(self) -> ChangedRead:
        return self

    async def __anext__(self) -> Any:
        return self._change(await self._inner.__anext__())

    async def __aenter__(self) -> ChangedRead:
        await self._inner.__aenter__()
        return self


class TappedRead(ChangedRead):
    """A transport's read stream that shows each item to the tap ("in") as it is received."""

    def __init__(self, inner: Any, tap: Callable[[str, Any], None]) -> None:
        super().__init__(inner, self._seen)
        self._tap = tap

    def _seen(self, item: Any) -> Any:
        self._show("in", item)
        return item


class TappedWrite(_Tapped):
    """A transport's write stream that shows each item to the tap ("out") as it is sent."""

    async def send(self, item: Any, /) -> None:
        self._show("out", item)
        await self._inner.send(item)

    async def __aenter__(self) -> TappedWrite:
        await self._inner.__aenter__()
        return self
