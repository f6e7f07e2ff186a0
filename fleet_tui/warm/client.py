"""Forward `fleet-tui call|tools` to a warm-session daemon for the same target, when one
listens: the command line, the directory and what stdout and stderr are go over its Unix
socket; what the daemon writes comes back and is written here, in order, with its exit code
(SIGTERM or SIGHUP meanwhile: said, and the command stopped). Stdlib only, so a forwarded
command never loads the mcp SDK or pydantic."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any, TextIO

WARM_COMMANDS = ("call", "tools")
CONNECT_TIMEOUT_S = 2.0
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""Said and answered with 128 + their number (143, 129), as the commands run here do; without
a handler they ended the process with no word."""


def forward(argv: list[str]) -> int | None:
    """The exit code of `argv` run by a warm daemon, or None when none serves it (then run it
    here: nothing was sent to a server)."""
    if not argv or argv[0] not in WARM_COMMANDS:
        return None  # before any import: `fleet-tui --help` and the app start as fast as before
    from fleet_tui.warm.place import mcp_urls, runtime_dir, socket_path, target_key

    urls = mcp_urls(argv[1:])
    folder = runtime_dir() if urls else None
    if folder is None:
        return None
    cwd = os.getcwd()
    path = socket_path(folder, target_key(cwd, urls))
    if not os.path.exists(path):
        return None
    import json
    import socket

    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.settimeout(CONNECT_TIMEOUT_S)
        connection.connect(str(path))
        request = {
            "argv": argv,
            "cwd": cwd,
            "streams": [describe(sys.stdout), describe(sys.stderr)],
        }
        connection.sendall(json.dumps(request).encode() + b"\n")
        replies = connection.makefile("rb")
        first = json.loads(replies.readline() or b"{}")
        connection.settimeout(None)  # a call may run for minutes
    except (OSError, ValueError):  # gone, or going away: nothing was run
        connection.close()
        return None
    if not first.get("accepted"):
        connection.close()
        return None
    previous = {number: signal.signal(number, _stop) for number in STOP_SIGNALS}
    try:
        return relay(replies)
    except Stopped as stop:  # closing the connection makes the daemon stop the command
        name = signal.Signals(stop.number).name
        print(
            f"fleet-tui: terminated ({name}); the warm session stops the command", file=sys.stderr
        )
        return 128 + stop.number
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        connection.close()


class Stopped(Exception):
    """A stop signal (SIGTERM, SIGHUP) arrived while the daemon ran the command."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _stop(number: int, _frame: object) -> None:
    raise Stopped(number)


def describe(stream: TextIO) -> dict[str, Any]:
    """What the daemon's stand-in for `stream` must say of itself."""
    return {"tty": stream.isatty(), "encoding": stream.encoding, "errors": stream.errors}


def relay(replies: Any) -> int:
    """Write what the daemon wrote, in order, until its exit code."""
    import json

    streams = {1: sys.stdout, 2: sys.stderr}
    for line in replies:
        message = json.loads(line)
        if "exit" in message:
            return int(message["exit"])
        stream = streams[message["o"]]
        stream.write(message["t"])
        stream.flush()
    print("fleet-tui: the warm session ended before the command did", file=sys.stderr)
    return 1
