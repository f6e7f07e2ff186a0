"""Files only their owner can read (0600, in 0700 folders): a session holds what an env
returned and what the user typed, a sign-in its tokens. They live in the user's state folder."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, BinaryIO


def state_dir() -> Path:
    """fleet-tui's folder in the user's state folder: `$XDG_STATE_HOME/fleet-tui` (or
    ~/.local/state/fleet-tui)."""
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return Path(state) / "fleet-tui"


def make_private_dir(folder: Path) -> None:
    """Create `folder` and its missing parents, each for its owner only; folders that exist
    already are left as they are."""
    missing = []
    for path in (folder, *folder.parents):
        if path.exists():
            break
        missing.append(path)
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            path.mkdir(mode=0o700)


def open_private_append(path: Path) -> IO[str]:
    """`path` opened for appending text, for its owner only: a file that exists already (a
    trace written before, made by another tool) is made 0600 too, through the opened file."""
    return os.fdopen(_private_append_descriptor(path), "a", encoding="utf-8")


def open_private_append_bytes(path: Path) -> BinaryIO:
    """`path` opened for appending bytes (text already encoded), as `open_private_append`."""
    return os.fdopen(_private_append_descriptor(path), "ab")


def _private_append_descriptor(path: Path) -> int:
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.fchmod(descriptor, 0o600)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def write_private_once(path: Path, data: bytes) -> None:
    """Write `data` to `path` for its owner only, unless the file exists (files named by the
    hash of their content); through a temporary file of its own, so no reader sees half of it
    and two writers of the same file at once (the session recorder's thread and the UI) both
    succeed."""
    if not path.exists():
        write_private(path, data)


def write_private(path: Path, data: bytes) -> None:
    """Replace `path` with `data`, for its owner only, through a temporary file of its own."""
    descriptor, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise
