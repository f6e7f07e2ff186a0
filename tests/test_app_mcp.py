"""The app against real MCP servers (`--mcp`): tools, calls, text, timing, cancel, history."""

from __future__ import annotations

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.text_pager import TextPager
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for, wait_idle


async def test_lists_the_union_with_owners_and_filters_fuzzily(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        names = [t.name for t in app.controller.tools]
        assert {"echo", "picture", "slow_count", "alpha/whoami", "beta/whoami"} <= set(names)
        owners = {t.name: t.endpoint for t in app.controller.tools}
        assert owners["echo"].startswith(two_servers.urls[0].rsplit("/", 1)[0])
        assert owners["picture"].startswith(two_servers.urls[1].rsplit("/", 1)[0])
        app.history.focus()
        await pilot.press("slash")
        assert app.focused.id == "tool-filter"
        await pilot.press("s", "l", "w", "c")
        await pilot.pause()
        assert app.tool_list.shown[0].name == "slow_count"
        count = str(app.query_one("#tool-count").content)
        assert count.startswith(f"{len(app.tool_list.shown)}/{len(names)} tools")
        await pilot.press("enter")
        await pilot.pause()
        assert app.tool_panel.tool.name == "slow_count"


async def test_call_shows_text_history_and_timing(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "echo", {"text": "hello from the form"})
        assert entry.status == "ok"
        assert "hello from the form" in rendered_text(app)
        app.result_view.select_tab("timing")
        await pilot.pause()
        timing = dict(app.result_view.plan.timing)
        assert timing["Endpoint"] == entry.result.endpoint == two_servers.urls[0]
        assert timing["Latency"].endswith(" ms") and timing["Status"] == "ok"
        app.result_view.select_tab("raw")
        raw = app.query_one("#raw", TextPager).text
        assert "hello from the form" in raw
        await call(pilot, "echo", {"text": "# Notes\n\n- one\n- **two**"})
        [markdown] = app.query("#rendered Markdown")
        assert markdown.source.startswith("# Notes")


async def test_history_holds_its_rows_while_its_tab_is_hidden(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        first = await call(pilot, "echo", {"text": "one"})
        await call(pilot, "echo", {"text": "two"})
        assert app.history.row_count == 0 and len(app.history.entries) == 2
        await app.show_result(first)  # an older result is read meanwhile
        await pilot.click("#--content-tab-pane-history")
        await pilot.pause()
        assert app.history.row_count == 2 and app.history.cursor_row == 1
        assert "echo  ok" in app.history.get_row("2")[1].plain
        assert str(app.result_view.border_title).startswith("#1 ")  # still the one read
        app.start_call("echo", {"text": "three"})  # shown: its row comes with the call
        await wait_for(pilot, lambda: app.history.row_count == 3)
        await wait_idle(pilot)
        assert "echo  ok" in app.history.get_row("3")[1].plain
        assert app.history.cursor_row == 2


async def test_the_result_tabs_out_of_sight_are_filled_when_shown(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first text"})
        await call(pilot, "echo", {"text": "second text"})
        assert "second text" not in app.query_one("#raw", TextPager).text  # not shown yet
        await pilot.click("#--content-tab-tab-raw")
        await pilot.pause()
        assert "second text" in app.query_one("#raw", TextPager).text
        await call(pilot, "echo", {"text": "third text"})  # the Raw tab in sight: filled
        assert "third text" in app.query_one("#raw", TextPager).text


async def test_escape_cancels_a_running_call(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("slow_count", {"seconds": 30})
        await pilot.pause()
        await pilot.click("#call-button")
        await wait_for(pilot, lambda: app.call_running)
        await pilot.press("escape")
        await wait_idle(pilot)
        assert app.controller.records[-1].status == "cancelled"
        entry = await call(pilot, "echo", {"text": "still alive"})
        assert entry.status == "ok"


async def test_history_rerun_and_load_args(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        await call(pilot, "whoami")
        await pilot.press("f3")
        await pilot.pause()
        app.history.move_cursor(row=0)
        await pilot.pause()
        assert "first" in rendered_text(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: len(app.controller.records) == 3)
        await wait_idle(pilot)
        assert app.controller.records[2].tool == "echo" and app.controller.records[2].arguments == {
            "text": "first"
        }
        assert app.controller.records[2].status == "ok"
        await pilot.press("f3")
        app.history.move_cursor(row=0)
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert app.tool_panel.tool.name == "echo"
        assert app.tool_panel.arguments() == {"text": "first"}
