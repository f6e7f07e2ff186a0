"""The tool filter is a search box: `/` and ctrl+a select its query, ctrl+u clears it."""

from __future__ import annotations

from textual.widgets import Input

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.help import HelpScreen, help_table
from tests.app_driver import SIZE, wait_connected


def query(app: FleetTuiApp) -> str:
    return app.query_one("#tool-filter", Input).value


async def test_slash_in_the_filter_selects_the_query_so_typing_replaces_it(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.history.focus()
        await pilot.press("slash", *"ech")
        assert app.focused.id == "tool-filter" and query(app) == "ech"
        await pilot.press("slash", *"add")
        await pilot.pause()
        assert query(app) == "add"
        assert app.tool_list.shown[0].name == "add"


async def test_ctrl_a_selects_and_ctrl_u_clears_the_filter(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.tool_list.focus_filter()
        await pilot.press(*"ech", "ctrl+a", *"who")
        assert query(app) == "who"
        await pilot.press("left", "ctrl+u")  # clears all of it, wherever the cursor is
        await pilot.pause()
        assert query(app) == ""
        assert len(app.tool_list.shown) == len(app.controller.tools)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen) and app.screen.area == "filter"


def test_help_in_the_filter_lists_its_keys():
    rows = [str(cell) for column in help_table("filter").columns for cell in column.cells]
    assert {"/", "ctrl+a", "ctrl+u"} <= set(rows)
