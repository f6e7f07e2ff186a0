"""The Resources and Prompts panes, resource links, audio and tool hints in the app, driven
with Pilot against a real MCP server (tests/fixtures/catalog_server.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.resources import TextResource
from textual.widgets import Input, Tab

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.result_format import ImagePart, JsonPart, MediaPart
from fleet_tui.ui.screens.arguments_screen import ArgumentsScreen
from fleet_tui.ui.widgets.catalog_panes import PromptsPane, ResourcesPane
from fleet_tui.ui.widgets.result_view import ResourceLinkButton
from fleet_tui.ui.widgets.tool_list import tool_prompt
from tests.app_driver import SIZE, call, rendered_text, screen_text, wait_connected, wait_for
from tests.fixtures.catalog_server import BLOB, PAGE, SCRIPT, WAV, build_catalog_server
from tests.fixtures.mcp_servers import ServedMcp, serve_in_thread


def catalog_app(server: ServedMcp) -> FleetTuiApp:
    return FleetTuiApp(McpTarget(urls=[server.url]))


async def open_resources(pilot) -> ResourcesPane:
    app = pilot.app
    await wait_connected(pilot)
    await wait_for(
        pilot, lambda: app.query(ResourcesPane) and app.query(ResourcesPane)[0].resources
    )
    await app.run_action("show_resources")  # the palette's entry
    await pilot.pause()
    return app.query_one(ResourcesPane)


async def shown_title(pilot, title: str) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.result_view.plan and app.result_view.plan.title == title)
    await pilot.pause()


async def choose(pilot, pane, index: int) -> None:
    pane.options.highlighted = index
    pane.options.focus()
    await pilot.press("enter")


async def test_lists_resources_and_reads_json_images_and_binary_saved_to_a_file(
    catalog_mcp, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    app = FleetTuiApp(McpTarget(urls=[catalog_mcp.url]), image_folder=tmp_path / "read")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_resources(pilot)
        assert [r.uri for r in pane.resources][:2] == ["memo://notes", "memo://config"]
        assert [t.uri_template for t in pane.templates] == ["memo://items/{item}"]
        assert "5 resources · 1 template" in screen_text(app)
        await choose(pilot, pane, 1)
        await shown_title(pilot, "Resource memo://config")
        assert isinstance(app.result_view.plan.parts[0], JsonPart)
        assert app.result_view.plan.parts[0].value == {"debug": True, "level": 3}
        await choose(pilot, pane, 2)
        await shown_title(pilot, "Resource memo://logo")
        assert isinstance(app.result_view.plan.parts[0], ImagePart)
        await choose(pilot, pane, 3)
        await shown_title(pilot, "Resource memo://blob")
        [auto_saved] = (tmp_path / "read").glob("blob-0-*.bin")
        assert auto_saved.read_bytes() == BLOB
        assert isinstance(app.result_view.plan.parts[0], MediaPart)
        assert f"saved to {auto_saved}" in rendered_text(app)
        await pilot.click("#rendered")
        await pilot.press("s")
        await wait_for(pilot, lambda: list(tmp_path.glob("result-0-*.bin")))
        assert next(tmp_path.glob("result-0-*.bin")).read_bytes() == BLOB


def focused_value(app) -> str | None:
    """The text of the focused field, if a text field has the focus."""
    return app.focused.value if isinstance(app.focused, Input) else None


async def test_a_template_is_read_with_values_the_server_completes(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_resources(pilot)
        await choose(pilot, pane, 5)
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ArgumentsScreen) and app.screen
        )
        await pilot.pause()
        await pilot.press("a", "p")
        suggestions = screen.query_one("#suggestions")
        await wait_for(pilot, lambda: suggestions.option_count == 2)
        assert [str(suggestions.get_option_at_index(i).prompt) for i in range(2)] == [
            "item = apple",
            "item = apricot",
        ]
        assert isinstance(app.focused, Input)  # the field keeps the focus
        assert suggestions.highlighted == 0  # and the first suggestion is highlighted
        await pilot.press("down", "tab")
        await wait_for(pilot, lambda: focused_value(app) == "apricot")
        assert not suggestions.has_class("shown")
        await pilot.click("#submit")
        await shown_title(pilot, "Resource memo://items/apricot")
        assert "item apricot" in rendered_text(app)


async def test_enter_takes_the_first_suggestion_and_ctrl_s_reads(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_resources(pilot)
        await choose(pilot, pane, 5)
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ArgumentsScreen) and app.screen
        )
        await pilot.pause()
        await pilot.press("a", "p")
        suggestions = screen.query_one("#suggestions")
        await wait_for(pilot, lambda: suggestions.option_count == 2)
        await pilot.press("enter")
        await wait_for(pilot, lambda: focused_value(app) == "apple")
        assert not suggestions.has_class("shown")
        await pilot.press("ctrl+s")
        await shown_title(pilot, "Resource memo://items/apple")


async def test_subscribing_marks_an_updated_resource_until_it_is_read_again(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_resources(pilot)
        pane.options.highlighted = 0
        await pilot.press("u")
        await wait_for(pilot, lambda: "memo://notes" in pane.subscribed)
        assert "subscribed" in screen_text(app)
        await call(pilot, "touch", {"text": "rewritten notes"})
        await wait_for(pilot, lambda: "memo://notes" in pane.updated)
        await app.run_action("show_resources")  # the palette's entry
        await pilot.pause()
        assert "1 updated" in screen_text(app)
        await choose(pilot, pane, 0)
        await shown_title(pilot, "Resource memo://notes")
        assert "rewritten notes" in rendered_text(app)
        assert not pane.updated
        pane.options.highlighted = 0
        pane.options.focus()
        await pilot.press("u")
        await wait_for(pilot, lambda: not pane.subscribed)


async def test_a_prompt_is_got_through_a_form_of_its_arguments(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: app.query(PromptsPane) and app.query(PromptsPane)[0].prompts)
        await app.run_action("show_prompts")  # the palette's entry
        await pilot.pause()
        pane = app.query_one(PromptsPane)
        assert [p.name for p in pane.prompts] == ["greet", "plain"]
        await choose(pilot, pane, 0)
        screen = await wait_for(
            pilot, lambda: isinstance(app.screen, ArgumentsScreen) and app.screen
        )
        await pilot.pause()
        await pilot.click("#submit")  # name is required: refused, the form stays
        await pilot.pause()
        assert app.screen is screen
        assert "name" in screen_text(app) and "required" in screen_text(app)
        await pilot.press(*"Ada")
        await pilot.click("#submit")
        await shown_title(pilot, "Prompt greet")
        assert "Hello Ada!" in rendered_text(app)
        assert "user" in rendered_text(app)


async def test_a_resource_link_in_a_result_opens_the_resource(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "link")
        button = await wait_for(pilot, lambda: app.query(ResourceLinkButton))
        assert button[0].uri == "memo://notes"
        await pilot.click(ResourceLinkButton)
        await shown_title(pilot, "Resource memo://notes")
        assert "notes" in rendered_text(app)


async def test_audio_is_saved_with_s_and_annotations_show_dimmed(
    catalog_mcp, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await call(pilot, "chime")
        assert "Audio: audio/wav" in rendered_text(app)
        await pilot.click("#rendered")
        await pilot.press("s")
        saved = await wait_for(pilot, lambda: list(tmp_path.glob("result-0-*.wav")))
        assert Path(saved[0]).read_bytes() == WAV
        await call(pilot, "noted")
        assert "(for user; priority 0.9)" in rendered_text(app)


async def test_s_saves_active_types_as_bin_and_says_the_servers_type(
    catalog_mcp, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await call(pilot, "shady")
        await pilot.click("#rendered")
        await pilot.press("s")
        toasts = await wait_for(pilot, lambda: " ".join(n.message for n in app._notifications))
        saved = sorted(tmp_path.glob("result-*"))
        assert [p.suffix for p in saved] == [".bin", ".bin"]
        assert {p.read_bytes() for p in saved} == {SCRIPT, PAGE}
        assert "(the server said application/x-sh)" in toasts
        assert "(the server said text/html)" in toasts


async def test_tool_hints_show_in_the_list_and_the_form_header(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        tools = {t.name: t for t in app.controller.tools}
        assert tool_prompt(tools["wipe"], [], "").plain.startswith("! wipe")
        assert tool_prompt(tools["research"], [], "").plain.startswith("T research")
        await app.show_tool("wipe")
        await pilot.pause()
        assert "! destructive" in screen_text(app)
        await app.show_tool("research")
        await pilot.pause()
        assert "T task only" in screen_text(app)


@pytest.mark.parametrize("action", ["show_resources", "show_prompts"])
async def test_servers_without_resources_or_prompts_get_no_pane(mcp_alpha, action):
    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: not [w for w in app.workers if w.group == "catalog"])
        await app.run_action(action)
        await pilot.pause()
        assert not app.query(ResourcesPane) and not app.query(PromptsPane)
        assert f"list no {action.removeprefix('show_')}" in screen_text(app)


async def test_markup_and_escapes_in_a_resource_name_show_literally(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_resources(pilot)
        assert "[/]evil[bold red]" in screen_text(app)
        assert "\x1b" not in screen_text(app)
        await choose(pilot, pane, 4)
        await shown_title(pilot, "Resource memo://evil")
        assert "[/]evil[bold red]" in rendered_text(app)
        assert app.is_running


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_every_sidebar_tab_is_in_sight_with_resources_and_prompts(catalog_mcp, size):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=size) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: app.query(PromptsPane) and app.query(ResourcesPane))
        await pilot.pause()
        tabs = app.query_one("#sidebar").query(Tab)
        assert [str(tab.label) for tab in tabs] == [
            "Tools",
            "Hist",
            "Log",
            "Proto",
            "Res",
            "Prompts",
        ]
        sidebar = app.query_one("#sidebar").region
        for tab in tabs:
            assert sidebar.contains_region(tab.region), f"tab {tab.label} is cut off"


async def test_the_panes_list_again_when_the_server_says_resources_or_prompts_changed():
    server = build_catalog_server()

    @server.tool(description="Adds a resource and a prompt and says both lists changed.")
    async def grow(ctx: Context) -> str:
        server.add_resource(TextResource(uri="memo://fresh", name="fresh", text="new"))

        @server.prompt(description="Added while connected.")
        def fresh() -> str:
            return "fresh"

        await ctx.session.send_resource_list_changed()
        await ctx.session.send_prompt_list_changed()
        return "grown"

    served = serve_in_thread("catalog-growing", server)
    try:
        app = catalog_app(served)
        async with app.run_test(size=SIZE) as pilot:
            resources = await open_resources(pilot)
            prompts = await wait_for(pilot, lambda: app.query(PromptsPane))
            assert "memo://fresh" not in [r.uri for r in resources.resources]
            await call(pilot, "grow")
            await wait_for(
                pilot, lambda: "memo://fresh" in [str(r.uri) for r in resources.resources]
            )
            await wait_for(pilot, lambda: "fresh" in [p.name for p in prompts[0].prompts])
    finally:
        served.stop()


async def test_repeated_updates_are_counted_on_the_resource_with_one_toast(catalog_mcp):
    app = catalog_app(catalog_mcp)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_resources(pilot)
        pane.options.highlighted = 0
        await pilot.press("u")
        await wait_for(pilot, lambda: "memo://notes" in pane.subscribed)
        for round in range(1, 4):
            await call(pilot, "touch", {"text": f"notes, round {round}"})
            await wait_for(pilot, lambda round=round: pane.updated.get("memo://notes") == round)
        row = str(pane.options.get_option_at_index(0).prompt)
        assert "memo://notes" in row and "updated 3 times" in row
        toasts = [n.message for n in app._notifications if "changed" in n.message]
        assert toasts == ["memo://notes changed: enter in Resources reads it again"]
