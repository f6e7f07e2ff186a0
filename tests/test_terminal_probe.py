"""The terminal is probed for images in a thread of its own while the app's modules load, and
the probe has ended once `wait` returns; inside tmux it leaves the pane's title alone."""

from __future__ import annotations

import shutil
import subprocess
import sys
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
