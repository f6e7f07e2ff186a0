"""The app command asks Textual for up to 120 screen updates a second (a result waits at most
8 ms for the next paint, not 17), unless TEXTUAL_FPS in the environment says otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

READ_FPS = (
    "from fleet_tui.ui.loading import load_app\n"
    "load_app()\n"
    "import textual.constants\n"
    "print(textual.constants.MAX_FPS)\n"
)


def _fps(environment: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", READ_FPS],
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_the_app_paints_up_to_120_times_a_second():
    environment = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert _fps(environment) == 120


def test_textual_fps_in_the_environment_wins():
    assert _fps({**os.environ, "TEXTUAL_FPS": "30"}) == 30
