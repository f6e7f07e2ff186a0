"""Snapshot tests of the main screens (pytest-textual-snapshot; half-cell images).

Update after an intended change with `pytest tests/test_snapshots.py --snapshot-update`, then
look at the pictures in the report before committing them.
"""

from __future__ import annotations

import pytest

from tests.app_driver import SIZE
from tests.app_flows import FLOWS, stable_app


@pytest.mark.parametrize("name", ["tool-form", "json-result", "computer-use", "help"])
def test_screen(name, snap_compare, local_host):
    env_key, walk = FLOWS[name]
    assert snap_compare(
        stable_app(local_host.base_url, env_key), terminal_size=SIZE, run_before=walk
    )


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=["80x24", "160x45"])
@pytest.mark.parametrize("name", ["tool-form", "json-result", "history-zoomed"])
def test_screen_at_small_and_large_sizes(name, size, snap_compare, local_host):
    """The main layouts on a small terminal (compact: the form gets the height, one-line
    buttons, a footer that fits) and a large one (the sidebar at 40% of the width)."""
    env_key, walk = FLOWS[name]
    assert snap_compare(
        stable_app(local_host.base_url, env_key), terminal_size=size, run_before=walk
    )
