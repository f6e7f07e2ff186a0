"""Copying in a real tmux, which drops the terminal's clipboard escape (OSC 52) by default:
ctrl+y puts the command in tmux's paste buffer too, and in a file only you read, and the app
says where."""

from __future__ import annotations

import shlex
import shutil
import sys
import uuid

import pytest

from fleet_tui.ui.clipboard import copied_file
from tests.test_tmux_e2e import tmux, wait_screen

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def test_ctrl_y_in_tmux_fills_tmux_buffer_and_the_copy_file(mcp_alpha):
    copied_file().unlink(missing_ok=True)
    session = f"fleet-tui-copy-{uuid.uuid4().hex[:8]}"
    command = [sys.executable, "-m", "fleet_tui", "--mcp", mcp_alpha.url, "--no-record"]
    tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "40", shlex.join(command))
    tmux("resize-window", "-t", session, "-x", "160", "-y", "40")  # whatever the server's size
    try:
        wait_screen(session, "5/5 tools")  # the first tool's form shown, the filter focused
        tmux("send-keys", "-t", session, "C-y")
        text = wait_screen(session, "tmux's paste buffer", str(copied_file().name))
        buffer = tmux("show-buffer")  # (the server, and its buffers, end with its last session)
    finally:
        tmux("kill-session", "-t", session)
    assert buffer.startswith("fleet-tui call --mcp") and buffer.endswith("whoami"), buffer
    assert copied_file().read_text() == buffer
    assert copied_file().stat().st_mode & 0o777 == 0o600
    assert "Copied" in text
