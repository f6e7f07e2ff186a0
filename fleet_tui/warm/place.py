"""Where warm-session daemons listen: one Unix socket per target in a folder only its owner
can enter ($XDG_RUNTIME_DIR/fleet-tui, or /tmp/fleet-tui-UID when there is none or its
path is too long for a socket). Standard library only (and the plain table of target options):
the forwarding path imports this before anything else."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from fleet_tui.target_argv import FLAGS

SOCKET_SUFFIX = ".sock"
MAX_FOLDER_CHARS = 60
"""A socket's path may hold about 100 bytes (104 on macOS, 108 on Linux); its name takes 38."""


def runtime_dir(create: bool = False) -> Path | None:
    """The daemons' folder, or None when it is missing (and not `create`d) or anyone but its
    owner, this user, could enter it."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    folder = Path(base or "/nonexistent") / "fleet-tui"
    if not (base and os.path.isdir(base)) or len(str(folder)) > MAX_FOLDER_CHARS:
        folder = Path(f"/tmp/fleet-tui-{os.getuid()}")
    if create:
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    try:
        info = folder.lstat()
    except OSError:
        return None
    private = stat.S_IMODE(info.st_mode) & 0o077 == 0
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or not private:
        return None
    return folder


def target_key(cwd: str, urls: list[str]) -> str:
    """Names a daemon: the directory it serves and its endpoints' URLs, in order (headers are
    checked by the daemon itself, so no secret goes into a file name)."""
    text = json.dumps([cwd, urls], ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def socket_path(folder: Path, key: str) -> Path:
    return folder / f"{key}{SOCKET_SUFFIX}"


def mcp_urls(words: list[str]) -> list[str]:
    """The `--mcp` URLs a command line names, or none when it names anything but HTTP
    endpoints (the daemon reads the command line properly before it serves it)."""
    mcp, stdio = FLAGS["mcp"], FLAGS["stdio"]
    urls: list[str] = []
    rest = iter(words)
    for word in rest:
        if word == "--":
            break
        if word == mcp:
            urls.append(next(rest, ""))
        elif word.startswith(f"{mcp}="):
            urls.append(word.removeprefix(f"{mcp}="))
        elif word.startswith(stdio):
            return []
    return urls
