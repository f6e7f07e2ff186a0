"""Verifier code that misbehaves (starts processes meant to outlive it, floods its output),
and checks of what came of it."""

from __future__ import annotations

import os
import time

ESCAPING = """
import os, subprocess, sys, time

def escape(env, final_answer=None):
    sleeper = [sys.executable, "-c", "import time; time.sleep(300)"]
    started = [subprocess.Popen(sleeper).pid]  # stays in the group
    started.append(subprocess.Popen(sleeper, start_new_session=True).pid)  # leaves it
    reader, writer = os.pipe()
    if os.fork() == 0:  # a daemon: its parent exits, it leaves the session
        os.setsid()
        if (pid := os.fork()) == 0:
            time.sleep(300)
        os.write(writer, str(pid).encode())
        os._exit(0)
    started.append(int(os.read(reader, 100)))
    with open(final_answer, "w") as pids:
        pids.write(" ".join(map(str, started)))
    print("started", len(started), flush=True)
    while True:
        pass
"""
"""Starts three sleepers (one in its group, one in a new session, one daemon), writes their
pids to the file named by the final answer, prints "started 3" and loops forever."""

FLOOD = """
import os

def flood(env, final_answer=None):
    print("a" * 3_000_000)
    os.write(1, b"b" * 2_000_000)
    return 1.0
"""
"""Prints 5,000,001 bytes (through print, then straight to its stdout) and passes."""


def flood_cut_to(limit: int) -> str:
    """What is left of FLOOD's output when all but `limit` bytes are cut."""
    return "a" * limit + f"\n… {5_000_001 - limit} bytes cut\n"


def process_alive(pid: int) -> bool:
    """Whether `pid` still runs after a few seconds' grace (a killed process takes a moment)."""
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.1)
    return True


def started_pids(pid_file) -> list[int]:
    return [int(pid) for pid in pid_file.read_text().split()]
