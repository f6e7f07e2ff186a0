"""Hostile and broken input: markup and escape sequences from an env, a malformed tool schema,
a reply the server cannot send."""

from __future__ import annotations

from fleet_tui.envs.base import EndpointState
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, screen_text, wait_connected, wait_for
from tests.fixtures.mcp_servers import ESC_NAME, EVIL_NAME


async def test_hostile_names_results_and_errors_are_shown_literally(mcp_hostile):
    app = FleetTuiApp(McpTarget(urls=[mcp_hostile.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert EVIL_NAME in [t.name for t in app.controller.tools]
        rows = app.tool_list
        prompts = [rows.row_text(index) for index in range(len(rows.shown))]
        assert any(EVIL_NAME in p for p in prompts)
        assert not any("\x1b" in p for p in prompts)
        assert any("esc␛[31mname" in p for p in prompts), "an escape is shown, not dropped"
        escaped = await call(pilot, ESC_NAME)
        assert escaped.tool == ESC_NAME and "escaped" in rendered_text(app)
        for title in (app.tool_panel.border_title, app.result_view.border_title):
            assert "esc␛[31mname" in str(title)
        entry = await call(pilot, EVIL_NAME, {"text": "[bold]x"})
        assert entry.status == "ok"
        shown = rendered_text(app)
        assert "[/] [bold red]red?[/bold red]" in shown and "[bold]x" in shown
        assert "\x1b" not in shown and "ESC-red" in shown
        failed = await call(pilot, "explode")
        assert failed.status == "error" and "[/][red]boom" in rendered_text(app)
        assert app.result_view.has_class("-error")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"evil")
        await pilot.pause(0.5)
        await pilot.press("escape")
        await pilot.press("f1")
        await pilot.pause()
        await pilot.press("escape")
        broken = await call(pilot, "broken_image")
        assert broken.status == "ok"
        [view] = app.query("#rendered ImageView")
        assert (
            view.picture is None and view.error == "cannot show image/png (18 B): not a valid PNG"
        )
        svg = app.export_screenshot()
        assert "\x1b" not in svg and app.is_running
        await pilot.press("f3")
        await wait_for(pilot, lambda: "esc␛[31mname  ok" in screen_text(app))


async def test_malformed_schema_still_gives_a_usable_form(mcp_hostile):
    app = FleetTuiApp(McpTarget(urls=[mcp_hostile.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("broken")
        await pilot.pause()
        assert app.tool_panel.form is not None
        entry = await call(pilot, "broken", {"value": "ok"})
        assert entry.arguments == {"value": "ok"}
        assert "got 'ok'" in rendered_text(app)
        await wait_for(pilot, lambda: app.is_running)


async def test_an_env_echoing_the_api_key_never_shows_it(mcp_alpha, monkeypatch):
    secret = "sk-live-shown-nowhere-4242"
    monkeypatch.setenv("FLEET_API_KEY", secret)
    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "echo", {"text": f"key {secret}"})
        assert entry.status == "ok"
        assert "key [redacted]" in rendered_text(app) and secret not in rendered_text(app)
        await app.show_tool("echo", {"text": "typed by the person"})  # the form shows what
        await pilot.pause()  # was typed in it, the key too: only the env's output is checked
        assert "key [redacted]" in rendered_text(app)  # the result is still shown
        for tab in ("tab-raw", "tab-structured"):
            app.result_view.query_one("TabbedContent").active = tab
            await pilot.pause()
            assert secret not in app.export_screenshot(), tab
        assert secret not in app.result_view.query_one("#raw").text


async def test_a_reply_the_server_cannot_encode_fails_that_call_only(mcp_hostile):
    app = FleetTuiApp(McpTarget(urls=[mcp_hostile.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        failed = await call(pilot, "unencodable")
        assert failed.status == "error" and failed.result.error_kind == "no answer"
        assert "without an answer" in rendered_text(app)
        assert [e.state for e in app.controller.env.endpoints()] == [EndpointState.UP]
        assert not app.banner.shown
        after = await call(pilot, "broken", {"value": "still here"})
        assert after.status == "ok" and "still here" in rendered_text(app)
        assert [entry.tool for entry in app.controller.records] == ["unencodable", "broken"]


async def test_toasts_and_the_copied_command_show_names_with_escapes_safely(mcp_hostile):
    app = FleetTuiApp(McpTarget(urls=[mcp_hostile.url]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await app.show_tool("escaped_argument", {ESC_NAME: "x"})  # too short: sent anyway
        await wait_for(pilot, lambda: "esc␛[31mname *  string" in screen_text(app))
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.controller.records)
        await app.show_tool(ESC_NAME)
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.clipboard)
        toasts = [notification.message for notification in app._notifications]
        assert any("esc\u241b[31mname: " in toast for toast in toasts), toasts
        assert app.clipboard.endswith("$'esc\\x1b[31mname'"), "pasting it writes no escape"
        assert any(app.clipboard in toast for toast in toasts)
        assert not any("\x1b" in toast for toast in toasts)
        assert "\x1b" not in app.export_screenshot()
