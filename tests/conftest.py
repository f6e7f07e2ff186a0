"""Shared fixtures live in tests/fixtures/, one module per area, loaded as pytest plugins.

The suite never writes into the user's state folder: for the whole run `XDG_STATE_HOME` points
at a temporary folder (sessions, sign-ins, tokens go there), inherited by every process a test
starts. tmux gets a server of its own (`TMUX_TMPDIR`), started by the suite with that
environment, so commands in its panes write there too (a running tmux server of the user's
would hand new panes its own environment instead).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

pytest_plugins = [
    "tests.fixtures.local_host",
    "tests.fixtures.mcp_servers",
    "tests.fixtures.asking_server",
    "tests.fixtures.catalog_server",
    "tests.fixtures.markup_server",
    "tests.fixtures.long_names",
    "tests.fixtures.info_server",
    "tests.fixtures.oauth_server",
    "tests.fixtures.openenv_servers",
    "tests.fixtures.raw_mcp",
    "tests.fixtures.talkative",
    "tests.fixtures.everything",
    "tests.fixtures.filesystem_server",
    "tests.fixtures.pypi_servers",
]

_run_folder = tempfile.mkdtemp(prefix="fleet-tui-tests-")


def pytest_configure(config: pytest.Config) -> None:
    os.environ["XDG_STATE_HOME"] = os.path.join(_run_folder, "state")
    os.environ["TMUX_TMPDIR"] = os.path.join(_run_folder, "tmux")
    os.makedirs(os.environ["TMUX_TMPDIR"], exist_ok=True)
    os.environ.pop("TMUX", None)  # else tmux commands would reach the server the suite runs in
    os.environ.pop("TMUX_PANE", None)
    # A shell starting the suite in the background (`pytest &`) ignores ctrl+c in it, and the
    # processes tests start would inherit that: the tests of ctrl+c would send it to deaf ears.
    # A handler (unlike "ignore") is not inherited across exec: children get the default.
    signal.signal(signal.SIGINT, signal.default_int_handler)


UI_SIGNS = ("run_test(", "snap_compare", "tmux", "chromium(")
"""A test module holding one of these drives the app (Pilot, snapshots), a real terminal or a
browser."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of modules that drive a UI `ui`: `-m "not ui and not slow"` is the quick
    pass over the rest (models, forms, envs, servers, headless commands)."""
    drives_ui: dict[Path, bool] = {}
    for item in items:
        path = Path(item.path)
        if path not in drives_ui:
            source = path.read_text(encoding="utf-8")
            drives_ui[path] = any(sign in source for sign in UI_SIGNS)
        if drives_ui[path]:
            item.add_marker(pytest.mark.ui)


def pytest_unconfigure(config: pytest.Config) -> None:
    if shutil.which("tmux"):
        subprocess.run(["tmux", "kill-server"], capture_output=True, check=False)
    shutil.rmtree(_run_folder, ignore_errors=True)
