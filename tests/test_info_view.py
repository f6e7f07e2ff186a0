"""The app's info view (ctrl+f, the palette's "Show the MCP endpoints"): each server's name,
version and instructions shown literally, and the roots offered changed there, which
server-everything's get-roots-list then lists."""

from __future__ import annotations

from pathlib import Path

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.screens.endpoints import EndpointsScreen
from tests.app_driver import SIZE, call, screen_text, wait_connected, wait_for


async def test_the_info_view_shows_server_info_instructions_literally_and_its_keys(mcp_instructed):
    from fleet_tui.ui.app import FleetTuiApp

    app = FleetTuiApp(McpTarget(urls=[mcp_instructed.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
        shown = await wait_for(
            pilot, lambda: "Instructions" in screen_text(app) and screen_text(app)
        )
        assert "Server        instructed [b]server[/b] 3.1.4" in shown
        assert "Title         Instructed ␛[1mTitle" in shown
        assert "Website       https://example.com/instructed" in shown
        assert "Call [bold red]x[/] first." in shown
        assert (
            "See [link=https://evil.example]the docs[/link] and [@click=app.quit]quit[/]." in shown
        )
        assert "␛[31mred by escape␛[0m, and a lone [/]" in shown
        assert "(no roots offered)" in shown  # none unless asked
        await pilot.press("f1")  # its keys
        await wait_for(pilot, lambda: "Add a root directory" in screen_text(app))
        await pilot.press("escape", "escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, EndpointsScreen))


async def test_roots_added_in_the_info_view_reach_get_roots_list(everything_http, tmp_path):
    from fleet_tui.ui.app import FleetTuiApp

    app = FleetTuiApp(McpTarget(urls=[everything_http.url]), roots=["."])
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        first = await call(pilot, "get-roots-list")
        assert str(tmp_path) not in first.result.text()
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
        await pilot.press("e")
        await pilot.press(*str(tmp_path / "missing"), "enter")
        await wait_for(pilot, lambda: "missing: not a directory" in screen_text(app))
        assert app.controller.roots() == ["."]
        await pilot.press("ctrl+u", *str(tmp_path), "enter")
        await wait_for(pilot, lambda: "the servers were told" in screen_text(app))
        assert app.controller.roots() == [".", str(tmp_path)]
        await pilot.press(*f"{tmp_path}/../{tmp_path.name}", "enter")
        await wait_for(pilot, lambda: "already offered: " in screen_text(app))
        assert app.controller.roots() == [".", str(tmp_path)]
        await pilot.press("escape")
        listed = ""
        for _ in range(50):  # the server asks for the roots again once told they changed
            listed = (await call(pilot, "get-roots-list")).result.text()
            if tmp_path.as_uri() in listed:
                break
        assert tmp_path.as_uri() in listed


async def test_a_root_is_removed_with_delete_and_long_instructions_are_cut(
    mcp_long_instructions, tmp_path
):
    from fleet_tui.ui.app import FleetTuiApp

    app = FleetTuiApp(McpTarget(urls=[mcp_long_instructions.url]), roots=[".", str(tmp_path)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
        shown = await wait_for(pilot, lambda: "line 000000" in (text := screen_text(app)) and text)
        assert "Server        instructed [b]server[/b] 3.1.4" in shown
        instructions = app.screen.query(".info-text").first().render()
        assert "instructions cut: the server sent 222,000 characters" in str(instructions)
        await pilot.click("#root-list")
        await pilot.press("home", "delete")
        await wait_for(pilot, lambda: "the servers were told" in screen_text(app))
        assert app.controller.roots() == [str(tmp_path)]
        assert Path.cwd().as_uri() not in screen_text(app)


async def test_removing_the_last_root_tells_the_server_there_are_none(everything_http, tmp_path):
    from fleet_tui.ui.app import FleetTuiApp

    app = FleetTuiApp(McpTarget(urls=[everything_http.url]), roots=[str(tmp_path)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert tmp_path.as_uri() in (await call(pilot, "get-roots-list")).result.text()
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
        await pilot.click("#root-list")
        await pilot.press("home", "delete")
        await wait_for(pilot, lambda: "the servers were told" in screen_text(app))
        assert app.controller.roots() == []
        await pilot.press("escape")
        listed = ""
        for _ in range(50):  # the server asks for the roots again once told they changed
            listed = (await call(pilot, "get-roots-list")).result.text()
            if tmp_path.as_uri() not in listed:
                break
        assert "no roots are currently configured" in listed, listed
