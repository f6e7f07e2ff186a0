"""A filter that matches no tool says so, and how to clear it."""

from __future__ import annotations

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.no_match import NoMatch
from tests.app_driver import SIZE, screen_text, wait_connected


async def test_a_filter_matching_nothing_says_so_and_how_to_clear_it(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert "No tool matches" not in screen_text(app)
        app.tool_list.focus_filter()
        await pilot.press(*"zzq[b]")
        await pilot.pause()
        assert app.tool_list.shown == []
        line = app.query_one(NoMatch)
        assert str(line.content) == "No tool matches 'zzq[b]'. ctrl+u clears the filter."
        assert line.region.height >= 2 and "No tool matches 'zzq[b]'" in screen_text(app)
        await pilot.press("ctrl+u")
        await pilot.pause()
        assert "No tool matches" not in screen_text(app)
        assert len(app.tool_list.shown) == len(app.controller.tools)
