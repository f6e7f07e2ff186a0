"""While the env connects, keys go to the tool filter and stay there; the form takes the focus
only when the person opens a tool."""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from fleet_tui.controller import ConnectionState
from fleet_tui.envs.base import Env
from fleet_tui.envs.factory import make_env
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.help import HelpScreen
from tests.app_driver import SIZE, local_target, wait_connected, wait_for, wait_idle
from tests.fixtures.mcp_servers import SlowServers


async def test_keys_typed_before_the_tools_arrive_filter_them(slow_servers: SlowServers):
    app = FleetTuiApp(slow_servers.target)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.controller.state == ConnectionState.CONNECTING)
        await pilot.pause()
        await pilot.press(*"ech")
        slow_servers.answer()
        await wait_connected(pilot)
        await pilot.pause()
        filter_box = app.query_one("#tool-filter", Input)
        assert filter_box.value == "ech"
        assert app.focused is filter_box
        assert app.tool_list.shown[0].name == "echo"
        assert app.tool_panel.tool.name == "echo"  # the best match is shown, not the first tool
        await pilot.press("o")  # still typing into the filter
        assert filter_box.value == "echo"
        await pilot.press("down", "enter")  # opens the second match: the form takes the focus
        await wait_for(pilot, lambda: app.focused is not None and app.focused is not filter_box)
        assert app.tool_panel.tool.name == app.tool_list.shown[1].name
        assert app.tool_panel in app.focused.ancestors


async def test_a_computer_use_env_in_a_narrow_terminal_gives_the_focus_to_its_screenshot(
    local_host,
):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
    async with app.run_test(size=(90, 36)) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        assert not app.query_one("#sidebar").display  # the picture takes its room
        assert app.focused is app.screenshot_pane  # not the hidden tool filter


async def test_a_computer_use_env_keeps_the_sidebar_and_the_filter_from_100_columns(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
    async with app.run_test(size=(100, 36)) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        assert app.query_one("#sidebar").display
        assert app.focused is app.query_one("#tool-filter", Input)


class ConnectsWhenLetGo:
    """A real env whose `connect` waits for `let_go` (keys are typed while it connects)."""

    def __init__(self, env: Env, let_go: asyncio.Event) -> None:
        self._env, self._let_go = env, let_go

    async def connect(self, progress=None) -> None:
        await self._let_go.wait()
        await self._env.connect(progress)

    def __getattr__(self, name: str):
        return getattr(self._env, name)


async def test_keys_typed_while_a_computer_use_env_connects_stay_in_sight(local_host):
    let_go = asyncio.Event()
    target = local_target(local_host.base_url, "desktop-todo")
    app = FleetTuiApp(target, env_factory=lambda t: ConnectsWhenLetGo(make_env(t), let_go))
    async with app.run_test(size=(90, 36)) as pilot:
        await wait_for(pilot, lambda: app.controller.state == ConnectionState.CONNECTING)
        await pilot.press(*"comp")
        let_go.set()
        await wait_connected(pilot)
        await wait_idle(pilot)
        filter_box = app.query_one("#tool-filter", Input)
        assert filter_box.value == "comp"
        assert app.query_one("#sidebar").display  # even narrow: what was typed stays shown
        assert app.focused is filter_box


async def test_other_screens_still_take_the_focus(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.focused is not None and app.focused.screen is app.screen  # arrows scroll it
