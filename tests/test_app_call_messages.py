"""Parts and extensions ask the calls part by posting messages to the app: show a record's
result, start a call, show a tool's form (real MCP servers, the real app)."""

from __future__ import annotations

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.calls import ShowResult, ShowTool, StartCall
from tests.app_driver import SIZE, call, wait_connected, wait_for, wait_idle


async def test_start_call_posted_to_the_app_makes_the_call(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.post_message(StartCall("echo", {"text": "asked by a message"}))
        await wait_for(pilot, lambda: len(app.controller.records) == 1)
        await wait_idle(pilot)
        record = app.controller.records[0]
        assert (record.tool, record.arguments, record.status) == (
            "echo",
            {"text": "asked by a message"},
            "ok",
        )


async def test_show_tool_posted_to_the_app_fills_the_form(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.post_message(ShowTool("echo", {"text": "in the form"}))
        await wait_for(pilot, lambda: app.tool_panel.tool and app.tool_panel.tool.name == "echo")
        assert app.tool_panel.arguments() == {"text": "in the form"}


async def test_show_result_posted_to_the_app_shows_that_record(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        first = await call(pilot, "echo", {"text": "first"})
        await call(pilot, "echo", {"text": "second"})
        assert str(app.result_view.border_title).startswith("#2 ")
        app.post_message(ShowResult(first))
        await wait_for(pilot, lambda: str(app.result_view.border_title).startswith("#1 "))
