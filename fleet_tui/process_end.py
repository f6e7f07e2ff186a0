"""Ending the fleet-tui process once its command is done, without tearing its modules down.

Python's own exit joins the threads that are not daemons, runs the `atexit` handlers, flushes
stdout and stderr, and then frees every object its modules hold, one by one: after a command
that loaded the mcp SDK (some 100,000 objects, its protocol models) that last step took about
20 ms of every one-shot command, for nothing anyone reads. `end` does the first three, as
Python would, and then ends the process at once. Standard library only.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

FLUSH_FAILED = 120
"""The exit status Python itself gives when stdout or stderr cannot be flushed at exit."""


def end(code: int) -> NoReturn:
    """Exit with `code` as Python would, less the freeing of its modules' objects (see the
    module)."""
    threading._shutdown()  # type: ignore[attr-defined]  # what Python's exit runs first
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            code = FLUSH_FAILED
    os._exit(code)
