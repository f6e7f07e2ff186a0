"""The cyclic garbage collector held off while work makes many objects that all live on.

Full collections are set off by the number of objects made, and each walks every object there
is: loading the mcp SDK (some 80,000 objects: its protocol models) or reading a page of 10,000
tools (some 300,000) set off one after another, and none found garbage. Loading modules also
freezes what it made (`gc.freeze`): no later collection walks it again, nor the one the
interpreter runs as it exits, which otherwise took as long as a one-shot command's call.
Standard library only.
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Iterator

_holds = 0
_resume = False
"""Whether the collector was on when the first of the current holds began."""
_holds_lock = threading.Lock()


@contextlib.contextmanager
def held_off() -> Iterator[None]:
    """The collector off for the block (blocks in several threads at once: it is back on, if
    it was on, when the last of them is done)."""
    global _holds, _resume
    with _holds_lock:
        if _holds == 0:
            _resume = gc.isenabled()
            gc.disable()
        _holds += 1
    try:
        yield
    finally:
        with _holds_lock:
            _holds -= 1
            if _holds == 0 and _resume:
                gc.enable()


@contextlib.contextmanager
def loading_modules() -> Iterator[None]:
    """The collector off while modules load; then, if any did, every object there is frozen
    (`gc.freeze`): what loading made lives as long as the process, and no collection walks it
    again. A block that loaded nothing (its modules were there) freezes nothing."""
    loaded_before = len(sys.modules)
    with held_off():
        try:
            yield
        finally:
            if len(sys.modules) > loaded_before:
                gc.freeze()


def freeze_what_lives() -> None:
    """Collect the garbage, then keep every object alive out of later collections: at 10 000
    tools the app holds some 118,000 objects, and a full collection falling on a keystroke in
    the tool filter held it 40 to 110 ms. What was frozen before (by this or by loading
    modules) is unfrozen first, so what has died since is collected here: nothing is held past
    the next time this runs."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
