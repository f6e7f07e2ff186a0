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


CHECK_OPTIONS = """
import gc, sys
from fleet_tui.cli import main
during = []

def collecting(phase, info):
    controller = sys.modules.get("fleet_tui.controller")
    if phase == "start" and controller is not None and not hasattr(controller, "SessionController"):
        during.append(info["generation"])

gc.callbacks.append(collecting)
code = main(["--mcp", "http://127.0.0.1:9/mcp"])  # refused at the end: no terminal here
print(code, during, gc.isenabled())
"""


def test_the_session_modules_load_with_the_collector_off_and_a_refusal_turns_it_back_on():
    """Checking the app's options loads the session's modules (the controller among them):
    no collection walks what they make while they load, and when the app is refused (here,
    for want of a terminal) the collector runs again."""
    run = subprocess.run(
        [sys.executable, "-c", CHECK_OPTIONS],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert "the app needs a terminal" in run.stderr
    assert run.stdout.split("\n")[0] == "2 [] True"
