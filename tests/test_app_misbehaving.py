"""The app against a misbehaving MCP server: an error status in the banner, broken tools marked
in the tool list."""

from __future__ import annotations

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for


async def test_an_error_status_shows_in_the_banner_with_a_hint(misbehaving):
    url = f"{misbehaving}/status/401"
    app = FleetTuiApp(McpTarget(urls=[url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.banner.shown)

        assert f"{url}: HTTP 401 Unauthorized: check the credentials" in app.banner.message
        assert "Server returned an error response" not in app.banner.message


async def test_an_endpoint_that_never_connected_is_down_not_lost(misbehaving):
    refused, fine = f"{misbehaving}/status/401", f"{misbehaving}/fine"
    app = FleetTuiApp(McpTarget(urls=[refused, fine]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.banner.shown)

        assert app.banner.message == (
            f"MCP endpoint down: {refused}: HTTP 401 Unauthorized: check the credentials "
            "(the API key or token)"
        )


async def test_broken_tools_are_marked_with_their_reason_and_the_others_work(misbehaving):
    app = FleetTuiApp(McpTarget(urls=[f"{misbehaving}/bad-schemas"]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        rows = [app.tool_list.row_text(index) for index in range(len(app.tool_list.shown))]
        prompts = {row.split()[0]: row for row in rows}

        assert list(prompts) == ["fine", "deep", "rootless"]
        assert "broken" not in prompts["fine"]
        assert "broken" in prompts["deep"] and "nested more than 197 levels" in prompts["deep"]
        assert "broken" in prompts["rootless"] and "inputSchema" in prompts["rootless"]
        await app.show_tool("deep")
        await pilot.pause()
        shown = str(app.tool_panel.query_one("#tool-description").render())
        assert "Broken, cannot be called: nested more than 197 levels deep" in shown
        assert (await call(pilot, "fine")).status == "ok"
        refused = await call(pilot, "deep")
        assert refused.status == "failed" and "is broken and was not called" in refused.message
        assert "is broken and was not called" in rendered_text(app)
