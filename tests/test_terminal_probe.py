"""The terminal is probed for images in a thread of its own while the app's modules load, and
the probe has ended once `wait` returns; inside tmux it leaves the pane's title alone."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
import uuid

import pytest

from tests.test_tmux_e2e import tmux, wait_screen

PROBE_IN_A_THREAD = """
import sys, threading
from fleet_tui.ui import terminal_probe
terminal_probe.start()
probing = [t.name for t in threading.enumerate() if t.name == "terminal-probe"]
terminal_probe.wait()
from textual_image._terminal import get_cell_size
print(probing == ["terminal-probe"], "textual_image.renderable" in sys.modules,
      hasattr(get_cell_size, "_result"), threading.active_count())
"""


def test_the_probe_runs_in_a_thread_and_has_ended_after_wait():
    run = subprocess.run(
        [sys.executable, "-c", PROBE_IN_A_THREAD], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "True", "True", "1"]


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_inside_tmux_the_probe_leaves_the_pane_title_alone(mcp_alpha):
    session = f"fleet-tui-probe-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} -m fleet_tui --mcp {mcp_alpha.url}"
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "35", command)
    try:
        wait_screen(session, "Filter tools")  # the app runs: the probe has ended
        title = tmux("display-message", "-p", "-t", session, "#{pane_title}").strip()
    finally:
        tmux("kill-session", "-t", session)
    assert "Gi=" not in title and "AAAA" not in title, title


PROBE_THEN_SIXEL = """
import sys
from fleet_tui.ui import images, terminal_probe
terminal_probe.start()
terminal_probe.wait()
import textual_image._sixel as encoder
print("numpy" in sys.modules, encoder._HAS_NUMPY)
images.choose_backend("sixel")
images.image_widget_class()
print("numpy" in sys.modules, encoder._HAS_NUMPY)
"""


def test_the_probe_loads_no_numpy_and_a_sixel_backend_gets_it_back():
    run = subprocess.run(
        [sys.executable, "-c", PROBE_THEN_SIXEL], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["False False", "True True"]


def _run_in_a_terminal(
    command: list[str], timeout: float = 60.0, answers: dict[bytes, bytes] | None = None
) -> tuple[bytes, int]:
    """What `command` writes to a pseudo-terminal, and its exit status. The terminal answers
    each query in `answers` the first time it is written, and none other."""
    unanswered = dict(answers or {})
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.pop("TMUX", None)
        os.environ["TERM"] = "xterm-256color"
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))  # no pixel size
    written, deadline = b"", time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the child has ended and closed the terminal
                    break
                if not chunk:
                    break
                written += chunk
                for query in [q for q in unanswered if q in written]:
                    os.write(fd, unanswered.pop(query))
        else:
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(fd)
    return written, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_the_terminal_is_probed_while_the_apps_options_are_checked():
    """The probe's queries go out before the target and the agent options are checked (their
    answers take up to a tenth of a second each from a terminal that does not know them), and
    an option refused meanwhile still ends the app with its message."""
    url = "http://127.0.0.1:9/mcp"
    written, code = _run_in_a_terminal(
        [sys.executable, "-m", "fleet_tui", "--mcp", url, "--break", "echo"]
    )
    refused = written.find(b"--break holds an agent's calls")
    assert refused > 0, written
    assert 0 <= written.find(b"\x1b[c") < refused, written  # the Sixel query (DA1) came first
    assert code != 0


PROBE_ONLY = """
from fleet_tui.ui import terminal_probe
terminal_probe.start()
terminal_probe.wait()
print("probed")
"""
DEVICE_ATTRIBUTES = b"\x1b[c"
CELL_SIZE = b"\x1b[16t"
KITTY_GRAPHICS = b"\x1b_G"


def test_a_terminal_that_answers_nothing_is_asked_once():
    """Every terminal answers the first query (device attributes) at once: one that does not
    is asked nothing more, rather than waited for a tenth of a second a query."""
    written, code = _run_in_a_terminal([sys.executable, "-c", PROBE_ONLY])
    assert code == 0 and b"probed" in written, written
    assert DEVICE_ATTRIBUTES in written
    assert CELL_SIZE not in written and KITTY_GRAPHICS not in written, written


def test_a_terminal_that_answers_is_asked_the_rest():
    written, code = _run_in_a_terminal(
        [sys.executable, "-c", PROBE_ONLY], answers={DEVICE_ATTRIBUTES: b"\x1b[?62;22c"}
    )
    assert code == 0 and b"probed" in written, written
    assert KITTY_GRAPHICS in written and CELL_SIZE in written, written
