"""The suite writes nothing into the user's state folder: its processes, its subprocesses and
the commands in its tmux panes all use a temporary one (tests/conftest.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from fleet_tui.private_files import state_dir

PRINT_STATE_DIR = "from fleet_tui.private_files import state_dir; print(state_dir())"


def test_the_suite_state_folder_is_a_temporary_one():
    assert not state_dir().is_relative_to(Path.home())
    assert state_dir().is_relative_to(tempfile.gettempdir())


def test_a_subprocess_uses_the_same_state_folder():
    run = subprocess.run(
        [sys.executable, "-c", PRINT_STATE_DIR], capture_output=True, text=True, check=True
    )
    assert run.stdout.strip() == str(state_dir())


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_command_in_a_tmux_pane_uses_the_same_state_folder(tmp_path):
    out = tmp_path / "state-dir"
    session = f"fleet-tui-state-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} -c '{PRINT_STATE_DIR}' > {out}"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, command], check=True)
    deadline = time.monotonic() + 60
    while not (out.exists() and out.read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert out.read_text().strip() == str(state_dir())
