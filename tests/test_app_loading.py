"""Loading the app: the terminal is probed meanwhile, and what loading made is kept out of later
garbage collections, with the collector running again afterwards."""

from __future__ import annotations

import subprocess
import sys

LOAD = """
import gc, sys
from fleet_tui.ui.loading import load_app
run_app = load_app()
from fleet_tui.ui import terminal_probe
terminal_probe.wait()
print(run_app.__module__, gc.isenabled(), gc.get_freeze_count() > 10_000,
      "textual_image.renderable" in sys.modules)
"""


def test_loading_the_app_freezes_what_it_made_and_leaves_the_collector_on():
    run = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["fleet_tui.ui.run", "True", "True", "True"]
