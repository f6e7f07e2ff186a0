"""The terminal is probed for images in a thread of its own while the app's modules load, and
the probe has ended once `wait` returns."""

from __future__ import annotations

import subprocess
import sys

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
