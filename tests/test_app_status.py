"""The status bar shows the heartbeat state when the instance asks for heartbeats."""

from __future__ import annotations

import re

from fleet_tui.envs.fleet import FleetEnv
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.status_bar import StatusBar
from tests.app_driver import local_target, screen_text, wait_connected, wait_for


def status_line(app: FleetTuiApp) -> str:
    return str(app.query_one(StatusBar).render())


async def test_status_bar_shows_the_latest_heartbeat(local_host):
    envs: list[FleetEnv] = []

    def beating_env(target) -> FleetEnv:
        envs.append(FleetEnv(target, heartbeat_interval=1))
        return envs[-1]

    app = FleetTuiApp(local_target(local_host.base_url, "tracker"), env_factory=beating_env)
    async with app.run_test(size=(120, 35)) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: (envs[0].heartbeat_state or "").startswith("ok "))
        await wait_for(pilot, lambda: "♥ ok " in status_line(app), timeout=5)
        assert (app.controller.heartbeat_state or "").startswith("ok ")


async def test_no_heartbeat_state_without_heartbeats(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"))
    async with app.run_test(size=(120, 35)) as pilot:
        await wait_connected(pilot)
        assert app.controller.env.heartbeat_state is None
        assert app.controller.heartbeat_state is None
        assert "♥" not in status_line(app)


async def test_the_endpoint_counts_add_up_to_the_tool_lists(local_host):
    """The tracker's second endpoint offers two tools of the first one's names: they are
    listed once, and the status line says so ("4 of 6")."""
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"))
    async with app.run_test(size=(160, 35)) as pilot:
        await wait_connected(pilot)
        tools = len(app.controller.tools)
        await wait_for(pilot, lambda: f"{tools}/{tools} tools" in screen_text(app))
        line = status_line(app)
        counts = [int(n) for n in re.findall(r"\((\d+)(?: of \d+)?\)", line)]
        assert len(counts) == 2 and sum(counts) == tools, line
        assert " of " in line  # one endpoint's own count differs from what the list shows
