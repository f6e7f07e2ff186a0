"""Run untrusted work in a forked child and, when it ends or is stopped, kill every process it
started.

The supervising process (the one that calls `supervise`) becomes a child subreaper (Linux
`PR_SET_CHILD_SUBREAPER`): a descendant orphaned by its parent, even one that called `setsid()`
to leave the process group, is re-parented to the supervisor instead of to init, so it can still
be found in /proc and killed. The work's stdout and stderr pass through the supervisor, which
keeps the first `limit` bytes of each and counts the rest, so a flood of output never piles up.

Limits: on systems without /proc and subreapers only the work's process group is killed (the
caller kills the supervisor's group; see `kill_group`). A process that kills the supervisor
before it is found escapes the sweep, though not its process group unless it left that too.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from fleet_tui.capped import OUTPUT_LIMIT, cut_note

PR_SET_CHILD_SUBREAPER = 36
STOPPED = 128 + signal.SIGTERM
"""`supervise`'s answer when it was stopped (SIGTERM) before the work ended."""
SWEEP_LIMIT_S = 5.0
"""How long the sweep keeps killing (a process that forks faster than it is killed)."""
DRAIN_LIMIT_S = 1.0
"""How long output may still come once every process is dead."""


def become_subreaper() -> bool:
    """Make orphaned descendants re-parent to this process (Linux); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def live_descendants(root: int) -> list[int]:
    """The processes below `root` that have not exited (read from /proc; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    for entry in _proc_entries():
        try:
            stat = Path("/proc", entry, "stat").read_bytes()
        except OSError:  # it exited meanwhile
            continue
        state, parent = stat[stat.rindex(b")") + 2 :].split()[:2]
        if state != b"Z":
            children.setdefault(int(parent), []).append(int(entry))
    found, frontier = [], [root]
    while frontier:
        below = children.get(frontier.pop(), [])
        found += below
        frontier += below
    return found


def _proc_entries() -> list[str]:
    try:
        return [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []


def kill_descendants() -> None:
    """SIGKILL every live descendant of this process, again until none is left."""
    deadline = time.monotonic() + SWEEP_LIMIT_S
    while (pids := live_descendants(os.getpid())) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        reap(None)
        time.sleep(0.01)
    reap(None)


def kill_group(pgid: int) -> None:
    """SIGKILL a process group, if any of it is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def reap(pid: int | None) -> int | None:
    """Reap every child that has exited; the exit code of `pid` if it was one of them."""
    code = None
    while True:
        try:
            done, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return code
        if done == 0:
            return code
        if done == pid:
            code = os.waitstatus_to_exitcode(status)


class _CappedCopy:
    """Copies one pipe to a file descriptor, the first `limit` bytes only."""

    def __init__(self, target: int, limit: int | None) -> None:
        self.target = target
        self.limit = limit
        self.kept = self.cut = 0

    def add(self, chunk: bytes) -> None:
        kept = chunk if self.limit is None else chunk[: max(0, self.limit - self.kept)]
        self._write(kept)
        self.kept += len(kept)
        self.cut += len(chunk) - len(kept)

    def finish(self) -> None:
        if self.cut:
            self._write(cut_note(self.cut).encode())

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):  # the reader went away: the output is dropped
            while data:
                data = data[os.write(self.target, data) :]


def supervise(work: Callable[[], int], limit: int | None = OUTPUT_LIMIT) -> int:
    """Run `work` in a forked child, its stdout and stderr copied to ours (each cut after
    `limit` bytes), and return its exit code, or STOPPED when this process got SIGTERM first.
    Either way every process the work started is killed before this returns."""
    become_subreaper()
    pipes = [os.pipe(), os.pipe()]
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    watched = (signal.SIGCHLD, signal.SIGTERM)
    handlers = {sig: signal.signal(sig, lambda *_: None) for sig in watched}
    signal.set_wakeup_fd(wake_write)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        signal.set_wakeup_fd(-1)
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        for target, (_, write) in zip((1, 2), pipes, strict=True):
            os.dup2(write, target)
        for fd in (*pipes[0], *pipes[1], wake_read, wake_write):
            os.close(fd)
        os._exit(_run(work))
    copies = {}
    for target, (read, write) in zip((1, 2), pipes, strict=True):
        os.close(write)
        copies[read] = _CappedCopy(target, limit)
    code, stopped = None, False
    while code is None and not stopped:
        ready, _, _ = select.select([*copies, wake_read], [], [])
        for fd in ready:
            if fd == wake_read:
                stopped = signal.SIGTERM in os.read(wake_read, 256)
            else:
                _copy_chunk(fd, copies)
        code = reap(pid)
    kill_descendants()
    _drain(copies)
    signal.set_wakeup_fd(-1)
    for sig, handler in handlers.items():
        signal.signal(sig, handler)
    return STOPPED if stopped or code is None else code  # no code: the loop ended stopped


def _run(work: Callable[[], int]) -> int:
    try:
        return work()
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 1
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def _copy_chunk(fd: int, copies: dict[int, _CappedCopy]) -> None:
    """One read from a pipe into its copy; at the end of the pipe the copy is finished."""
    chunk = os.read(fd, 65536)
    if chunk:
        copies[fd].add(chunk)
    else:
        copies.pop(fd).finish()
        os.close(fd)


def _drain(copies: dict[int, _CappedCopy]) -> None:
    """Copy what is still in the pipes (every writer is dead now, so each pipe ends soon)."""
    deadline = time.monotonic() + DRAIN_LIMIT_S
    while copies and (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select(list(copies), [], [], left)
        for fd in ready:
            _copy_chunk(fd, copies)
    for fd, copy in copies.items():
        copy.finish()
        os.close(fd)
