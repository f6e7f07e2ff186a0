"""Whether a process a test started (or its descendants) is still running, or ends soon."""

from __future__ import annotations

import time
from pathlib import Path

GONE_WITHIN_S = 20.0
"""How long a stopped process may take to end, on a loaded machine."""


def running(pid: int) -> bool:
    """Whether `pid` is a process that has not exited (a zombie has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def gone_soon(pid: int, within_s: float = GONE_WITHIN_S) -> bool:
    """Whether `pid` ends within `within_s` seconds."""
    deadline = time.monotonic() + within_s
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
