"""Loading the app's modules before it starts, as fast as the process allows: textual-image's
terminal probe runs meanwhile in a thread (`terminal_probe`), and the garbage collector waits
until they are loaded (`collector.loading_modules`). Loading makes some 100 000 objects that
live as long as the app; without this, full collections kept walking them while they loaded,
and at every later one (a keystroke in the tool filter, say)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

from fleet_tui.collector import loading_modules
from fleet_tui.ui import terminal_probe

PAINTS_PER_SECOND = 120
"""Textual's most screen updates a second (`TEXTUAL_FPS`, read when textual is imported; one
set in the environment wins). Textual paints at most once per 1/FPS s on a fixed beat, so a
result waited up to 17 ms at its default 60 for the next one; at 120, 8 ms. An idle app paints
nothing either way, and a flood of log lines took no longer (bench/bench_floods.py)."""


def paint_up_to_fps() -> None:
    """Ask Textual for `PAINTS_PER_SECOND` unless the environment says otherwise: before
    textual is imported."""
    os.environ.setdefault("TEXTUAL_FPS", str(PAINTS_PER_SECOND))


@contextlib.contextmanager
def app_loading(probe: bool = True) -> Iterator[None]:
    """While the app's modules load (and the app's options are checked, which loads the
    session's): the terminal probed meanwhile (`probe`), the collector held off until they have
    loaded (`collector.loading_modules`), Textual asked for `PAINTS_PER_SECOND`. If loading
    fails, the terminal's answers to the probe are read first (not left for the shell)."""
    paint_up_to_fps()
    if probe:
        terminal_probe.start()
    with loading_modules():
        try:
            yield
        except BaseException:
            terminal_probe.wait()
            raise


def load_app() -> Callable[..., int]:
    """`run_app`, once the app's modules are loaded (the terminal's probe started meanwhile)."""
    with app_loading():
        from fleet_tui.ui.run import run_app
    return run_app
