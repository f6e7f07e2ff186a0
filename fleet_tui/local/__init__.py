"""The embedded local Fleet-compatible host and its bundled envs.

`fleet_tui.local.runner.start_local_host()` serves the subset of Fleet's HTTP API that the
fleet-python SDK uses, plus each instance's MCP endpoints, on 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path

TASKS_DIR = Path(__file__).parent / "tasks"
BUNDLED_ENV_KEYS = ("tracker", "desktop-todo")


def bundled_task_files() -> dict[str, Path]:
    """The task file of each bundled env, by env key."""
    return {key: TASKS_DIR / f"{key}.json" for key in BUNDLED_ENV_KEYS}
