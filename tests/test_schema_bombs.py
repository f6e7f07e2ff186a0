"""Schema bombs from a real MCP server (tests/fixtures/schema_bombs.py): the app and `call`
stay usable, show the result, and say that the schema was too complex to validate."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Static, TextArea

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.raw_json_form import RawJsonForm
from tests.app_driver import SIZE, call, rendered_text, screen_text, wait_connected
from tests.cli_run import fleet_tui

NOTE = "schema too complex to validate: nested deeper than 64 levels"
OUTPUT_NOTE = "the output schema is too complex to validate (nested deeper than 64 levels)"


def test_call_shows_the_result_of_a_tool_whose_output_schema_is_a_bomb(mcp_bombs):
    result = fleet_tui("call", "--mcp", mcp_bombs.url, "bomb_out", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["structuredContent"] == {"value": 5}
    assert f"bomb_out: result not checked: {OUTPUT_NOTE}" in result.stderr


@pytest.mark.timeout(60)
async def test_the_app_shows_the_result_of_a_tool_whose_output_schema_is_a_bomb(mcp_bombs):
    app = FleetTuiApp(McpTarget(urls=[mcp_bombs.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "bomb_out")
        assert entry.status == "ok" and entry.result.structured == {"value": 5}
        app.result_view.query_one("#result-tabs").active = "tab-structured"
        await pilot.pause()
        verdict = app.result_view.query_one("#structured-verdict", Static)
        assert str(verdict.content) == f"Not checked: {OUTPUT_NOTE}."
        assert "Not checked" in screen_text(app)


@pytest.mark.timeout(60)
async def test_a_bomb_input_schema_gets_a_raw_json_form_that_takes_typing(mcp_bombs):
    app = FleetTuiApp(McpTarget(urls=[mcp_bombs.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("bomb_in")
        await pilot.pause()
        assert isinstance(app.tool_panel.form, RawJsonForm)
        note = app.tool_panel.query_one(".raw-note", Static)
        assert str(note.content) == f"{NOTE}; type the arguments as JSON."
        assert "schema too complex to validate" in screen_text(app)
        editor = app.tool_panel.query_one(TextArea)
        editor.clear()
        editor.focus()
        await pilot.press(*'{"value": 5}')
        assert app.tool_panel.arguments() == {"value": 5}
        assert app.tool_panel.problems() == []
        entry = await call(pilot, "bomb_in", {"value": "typed"})
        assert entry.status == "ok" and "got 'typed'" in rendered_text(app)


@pytest.mark.timeout(60)
def test_call_checks_a_result_against_a_backtracking_pattern_with_a_time_limit(mcp_bombs):
    result = fleet_tui("call", "--mcp", mcp_bombs.url, "slow_pattern_out", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["structuredContent"] == {"value": "a" * 40 + "b"}
    assert "slow_pattern_out: result does not match its output schema: $.value: " in (result.stderr)


def test_a_result_that_breaks_its_output_schema_is_shown_with_the_mismatch(mcp_bombs):
    result = fleet_tui("call", "--mcp", mcp_bombs.url, "mismatch_out", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["structuredContent"] == {"value": "five"}
    assert (
        "mismatch_out: result does not match its output schema: $.value: 'five' is not of type "
        "'integer'" in result.stderr
    )


@pytest.mark.timeout(60)
async def test_the_app_lists_a_backtracking_pattern_as_not_checked(mcp_bombs):
    app = FleetTuiApp(McpTarget(urls=[mcp_bombs.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "slow_pattern_out")
        assert entry.status == "ok"
        app.result_view.query_one("#result-tabs").active = "tab-structured"
        await pilot.pause()
        assert "1 mismatch(es)" in str(
            app.result_view.query_one("#structured-verdict", Static).content
        )
