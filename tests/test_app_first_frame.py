"""The app's first frame is drawn before connecting begins: the env is made (and the mcp SDK
imported, in a thread) only once the screen has been laid out and painted, so the work of
connecting does not hold back what the person first sees."""

from __future__ import annotations

from textual.geometry import Size
from textual.widgets import Input

from fleet_tui.envs.base import Env
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected
from tests.fixtures.mcp_servers import ServedMcp


async def test_the_env_is_made_after_the_tool_filter_is_drawn(mcp_alpha: ServedMcp) -> None:
    filter_sizes: list[Size] = []

    def env_factory(target: Target) -> Env:
        filter_sizes.append(app.query_one("#tool-filter", Input).size)
        return make_env(target)

    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]), env_factory=env_factory)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert len(filter_sizes) == 1
        assert filter_sizes[0].width > 0  # laid out (and painted in the same update) already
