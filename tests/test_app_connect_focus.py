"""While the env connects, keys go to the tool filter and stay there; the form takes the focus
only when the person opens a tool."""

from __future__ import annotations

from textual.widgets import Input

from fleet_tui.controller import ConnectionState
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


async def test_a_computer_use_env_gives_the_focus_to_its_screenshot(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        assert app.focused is app.screenshot_pane  # not the hidden tool filter


async def test_other_screens_still_take_the_focus(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.focused is not None and app.focused.screen is app.screen  # arrows scroll it
