"""Run a stdio MCP server so that nothing it starts outlives it, or fleet-tui.

`python -m fleet_tui.stdio_supervisor LIFELINE COMMAND ARGS...` starts COMMAND in a session
(and process group) of its own, handing it this process's stdin, stdout and stderr, and stays
between fleet-tui and the server as a child subreaper (`process_tree`): a grandchild, one
that called `setsid()` and a daemonized one (double fork) all re-parent here, not to init.

LIFELINE is a pipe whose write end only fleet-tui holds: it reads as closed when fleet-tui
closes it or dies, even by SIGKILL. When the server exits, when the lifeline closes, or on
SIGTERM/SIGHUP, every process below this one is killed (the server first gets SIGTERM and
`TERM_GRACE_S` to exit) and this process exits with the server's exit code.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

from fleet_tui.process_tree import become_subreaper, kill_descendants, kill_group, reap

TERM_GRACE_S = 2.0
"""How long the server has to exit after SIGTERM before every process left is killed."""
CANNOT_START = 127
"""The exit code when the server could not be started (its reason is on stderr)."""
CARRIED_OVER = ("PYTHONPATH",)
"""Variables set only so that this program imports fleet_tui; the server does not get them."""


def main(argv: list[str]) -> int:
    lifeline, command = int(argv[0]), argv[1:]
    become_subreaper()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: None)
    env = {name: value for name, value in os.environ.items() if name not in CARRIED_OVER}
    try:
        server = subprocess.Popen(command, env=env, start_new_session=True)
    except OSError as error:
        sys.stderr.write(f"cannot start {command[0]!r}: {error.strerror}\n")
        return CANNOT_START
    _let_go_of_stdio()
    code = _until_done(server.pid, lifeline, wake_read)
    if code is None:
        code = _stop(server.pid)
    kill_group(server.pid)
    kill_descendants()
    return code


def _let_go_of_stdio() -> None:
    """Only the server holds the pipes now: fleet-tui closing stdin reaches it as EOF, and
    stdout ends once the server and its descendants are gone."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    os.close(devnull)


def _until_done(pid: int, lifeline: int, wake: int) -> int | None:
    """The server's exit code once it exits; None when asked to stop first."""
    while True:
        ready, _, _ = select.select([lifeline, wake], [], [])
        if lifeline in ready and not os.read(lifeline, 256):
            return reap(pid)
        woken = os.read(wake, 256) if wake in ready else b""
        if (code := reap(pid)) is not None:
            return code
        if signal.SIGTERM in woken or signal.SIGHUP in woken:
            return None


def _stop(pid: int) -> int:
    """SIGTERM to the server's group, then up to TERM_GRACE_S for the server to exit."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + TERM_GRACE_S
    while time.monotonic() < deadline:
        if (code := reap(pid)) is not None:
            return code
        time.sleep(0.02)
    return 128 + signal.SIGKILL


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
