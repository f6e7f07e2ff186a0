"""SIGTERM and SIGHUP as a request to stop, for the app and the headless commands alike.

The first such signal calls `on_stop` (which ends the work so that what fleet-tui created is
closed); later ones are ignored, so that closing, bounded by its own timeouts, can finish. The
process then exits with 128 + the signal's number, as a shell reports a process a signal ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from dataclasses import dataclass

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
STDOUT_FD, STDERR_FD = 1, 2


@dataclass
class StopRequest:
    """Which stop signal arrived, if any."""

    signal: int | None = None

    @property
    def exit_code(self) -> int | None:
        return None if self.signal is None else 128 + self.signal


@contextlib.contextmanager
def stop_task_on_signals() -> Iterator[StopRequest]:
    """`stop_on_signals` that cancels the task it is entered in (a command's main task)."""
    task = asyncio.current_task()
    if task is None:
        raise RuntimeError("stop_task_on_signals is entered in a task")
    with stop_on_signals(task.cancel) as request:
        yield request


@contextlib.contextmanager
def stop_on_signals(on_stop: Callable[[], object]) -> Iterator[StopRequest]:
    """While inside, the first SIGTERM or SIGHUP calls `on_stop()` on the running loop.

    The handlers are Python-level ones, not the loop's: Python runs them in signal-number
    order, so after a hang-up ours (SIGHUP, 1) leaves the dead terminal before Textual's SIGCONT
    handler (the kernel sends both) restarts its output on it.
    """
    loop = asyncio.get_running_loop()
    request = StopRequest()

    def handle(number: int, _frame: object) -> None:
        if request.signal is not None:  # already stopping: let the cleanup finish
            return
        request.signal = number
        if number == signal.SIGHUP:
            _leave_hung_up_terminal()
        loop.call_soon_threadsafe(on_stop)

    previous = {}
    with contextlib.suppress(ValueError):  # not the main thread: the signals are not ours
        for number in STOP_SIGNALS:
            previous[number] = signal.signal(number, handle)
    try:
        yield request
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _leave_hung_up_terminal() -> None:
    """After a SIGHUP the terminal may be gone: point stdout and stderr at /dev/null if writing
    to them fails (a hung-up terminal answers every write, even an empty one, with EIO), so
    that a failed write does not end the cleanup early. Files, pipes and a live terminal stay."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (STDOUT_FD, STDERR_FD):
        try:
            os.write(fd, b"")
        except OSError:
            os.dup2(devnull, fd)
    os.close(devnull)
