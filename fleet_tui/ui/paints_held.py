"""The screen's paints held for a while, so what changes meanwhile reaches the terminal in
one frame: a call's "running" state and its result, both views' pictures of one screenshot."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, suppress
from typing import Protocol

from textual.app import ScreenStackError
from textual.screen import Screen
from textual.timer import Timer, TimerCallback


class PaintHolder(Protocol):
    """What holding paints uses of the app."""

    @property
    def screen(self) -> Screen[object]: ...

    def batch_update(self) -> AbstractContextManager[None]: ...

    def set_timer(
        self,
        delay: float,
        callback: TimerCallback | None = None,
        *,
        name: str | None = None,
        pause: bool = False,
    ) -> Timer: ...


@contextmanager
def paints_held(host: PaintHolder, most_s: float) -> Iterator[None]:
    """Hold the screen's paints for the block, or `most_s` if it lasts longer; the screen is
    painted as soon as they are let go (not at its next beat)."""
    held = ExitStack()

    def let_go() -> None:
        held.close()  # once: a closed stack holds nothing
        with suppress(ScreenStackError):  # no screen left: the app is closing
            host.screen.check_idle()  # a screen paints when idle, and it may be idle already

    timer = host.set_timer(most_s, let_go, name="paints held")
    held.enter_context(host.batch_update())
    try:
        yield
    finally:
        timer.stop()
        let_go()
