"""Copying text where it can be pasted, beyond the terminal's clipboard (OSC 52, which stock
tmux and many SSH set-ups drop without a word): inside tmux, tmux's paste buffer too; and
always a file only its owner reads, in the state folder, whose path the app shows."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from fleet_tui.private_files import make_private_dir, state_dir, write_private

TMUX_TIMEOUT_S = 2.0


def copied_file() -> Path:
    """Where the last copied text is written: `$XDG_STATE_HOME/fleet-tui/copied.txt`."""
    return state_dir() / "copied.txt"


def copy_beyond_the_terminal(text: str) -> str:
    """Put `text` in tmux's paste buffer (inside tmux) and in `copied_file()`; a note saying
    where it went, for the person to paste it from there."""
    places = []
    if os.environ.get("TMUX") and _load_tmux_buffer(text):
        places.append("tmux's paste buffer (prefix ] pastes it)")
    path = copied_file()
    try:
        make_private_dir(path.parent)
        write_private(path, text.encode())
        places.append(str(path))
    except OSError as error:
        places.append(f"not {path} ({error.strerror})")
    return "Also in " + " and in ".join(places)


def _load_tmux_buffer(text: str) -> bool:
    try:
        done = subprocess.run(
            ["tmux", "load-buffer", "-"],
            input=text.encode(),
            capture_output=True,
            timeout=TMUX_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0
