"""Starting a warm-session daemon for a target (`--keep-warm`), and talking to running ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.warm.place import runtime_dir, socket_path, target_key

ASK_TIMEOUT_S = 5.0


def start_daemon(target: Target, idle_s: float) -> str | None:
    """Leave a daemon holding `target`'s session open until idle for `idle_s` seconds; one
    already serving its URLs from this directory gives way to it. Why none was left, or None
    when one was."""
    if not isinstance(target, McpTarget) or target.stdio or not target.urls:
        return "--keep-warm keeps --mcp endpoints warm, nothing else: nothing was left running"
    folder = runtime_dir(create=True)
    if folder is None:
        return "--keep-warm: no folder of this user's own to put the warm session in"
    cwd = os.getcwd()
    ask(socket_path(folder, target_key(cwd, target.urls)), {"stop": True})
    daemon = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "warm", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        cwd=cwd,
    )
    assert daemon.stdin is not None
    # The headers go through a pipe: never on a command line or in a file.
    settings = {"urls": target.urls, "headers": target.headers, "idle_s": idle_s}
    daemon.stdin.write(json.dumps(settings).encode())
    daemon.stdin.close()
    return None


def kept_warm_note(idle_s: float) -> str:
    """What to tell the user once a session is kept warm."""
    return (
        f"fleet-tui: the session stays open for {idle_s:g}s after its last use, for the next "
        "call or tools on these endpoints from this directory (fleet-tui warm stop ends it)"
    )


def ask(path: Path, request: dict[str, Any]) -> dict[str, Any] | None:
    """A daemon's answer to `request` (stop, status), or None when none answers at `path`."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        try:
            connection.settimeout(ASK_TIMEOUT_S)
            connection.connect(str(path))
            connection.sendall(json.dumps(request).encode() + b"\n")
            return json.loads(connection.makefile("rb").readline() or b"null")
        except (OSError, ValueError):
            return None


def daemons() -> list[Path]:
    """The sockets of this user's daemons."""
    folder = runtime_dir()
    return sorted(folder.glob("*.sock")) if folder is not None else []
