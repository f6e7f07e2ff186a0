"""Names of 100,000 characters from a real server (tests/fixtures/long_names.py): tables and
lists cut them, `--json` and the tool form give them whole."""

from __future__ import annotations

import json

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.catalog_panes import PromptsPane, ResourcesPane
from fleet_tui.ui.widgets.tool_description import ToolDescription
from tests.app_driver import SIZE, screen_text, wait_connected, wait_for
from tests.cli_run import fleet_tui
from tests.fixtures.long_names import LONG
from tests.fixtures.mcp_servers import ServedMcp

WIDEST_LINE = 200


def test_headless_tables_cut_long_names_and_json_gives_them_whole(
    mcp_long_names: ServedMcp,
) -> None:
    for command in ("tools", "resources", "prompts"):
        run = fleet_tui(command, "--mcp", mcp_long_names.url)
        assert run.returncode == 0, run.stderr
        assert max(map(len, run.stdout.splitlines())) < WIDEST_LINE, command
        assert "nnnnnnnn…" in run.stdout and "Z" not in run.stdout, command
    tools = json.loads(fleet_tui("tools", "--mcp", mcp_long_names.url, "--json").stdout)
    assert LONG in [tool["name"] for tool in tools["tools"]]


async def name_rows_in(pilot, pane: type, items: str, action: str) -> list[str]:
    """The sidebar's rows showing the long name once `pane` lists its `items` and is shown."""
    app = pilot.app
    await wait_for(pilot, lambda: app.query(pane) and getattr(app.query_one(pane), items))
    await app.run_action(action)
    await pilot.pause()
    sidebar = [line.split("▕")[0] for line in screen_text(app).splitlines()]
    return [line for line in sidebar if "nnnnnnnnnn" in line]


async def test_the_apps_lists_cut_long_names_and_the_form_gives_the_whole_name(
    mcp_long_names: ServedMcp,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[mcp_long_names.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        resources = await name_rows_in(pilot, ResourcesPane, "resources", "show_resources")
        prompts = await name_rows_in(pilot, PromptsPane, "prompts", "show_prompts")
        assert len(resources) == 2, "the resource's name and URI each take one row"
        assert len(prompts) == 1, "the prompt's name takes one row"
        await app.show_tool(LONG)
        await pilot.pause()
        description = app.query_one(ToolDescription).text
        assert description.startswith(f"Name (100,000 characters): {LONG}\n")
