"""A tool whose only argument is one required string: its field shows, takes typing, is sent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer
from textual.widgets import Input

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.form_fields import FieldWidget
from tests.app_driver import wait_connected, wait_for, wait_idle
from tests.fixtures.mcp_servers import ServedMcp, serve_in_thread

SCHEMA = {"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]}


@pytest.fixture(scope="module")
def paint_server() -> Iterator[tuple[ServedMcp, list[dict[str, Any]]]]:
    """An MCP server with one tool, `paint`, whose schema is exactly SCHEMA; records calls."""
    received: list[dict[str, Any]] = []
    server = MCPServer("paint", log_level="WARNING")

    @server.tool(description="Paint the wall.")
    def paint(colour: str) -> str:
        received.append({"colour": colour})
        return f"painted {colour}"

    server._tool_manager.get_tool("paint").parameters = SCHEMA
    served = serve_in_thread("paint", server)
    yield served, received
    served.stop()


async def test_typing_reaches_the_only_field_and_is_sent(paint_server):
    served, received = paint_server
    app = FleetTuiApp(McpTarget(urls=[served.url]))
    async with app.run_test(size=(120, 35)) as pilot:
        await wait_connected(pilot)
        assert app.tool_panel.tool.input_schema == SCHEMA
        holder = app.tool_panel.query_one("#form-holder")
        # Focus comes before the first layout of the new text box: wait for both.
        await wait_for(
            pilot,
            lambda: any(box.has_focus and box.region.width for box in holder.query(Input)),
        )
        field = holder.query_one(Input)
        assert field.region.width >= 10 and field.region.height == 1
        assert app.screen.region.contains_region(field.region)
        await pilot.press(*"teal")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.controller.records)
        await wait_idle(pilot)
        assert app.controller.records[0].arguments == {"colour": "teal"}
        assert received[-1] == {"colour": "teal"}


async def test_clicking_the_field_after_the_filter_types_into_it(paint_server):
    served, received = paint_server
    app = FleetTuiApp(McpTarget(urls=[served.url]))
    async with app.run_test(size=(120, 35)) as pilot:
        await wait_connected(pilot)
        app.tool_list.focus_filter()
        holder = app.tool_panel.query_one("#form-holder")
        field = await wait_for(
            pilot, lambda: next((f for f in holder.query(FieldWidget) if f.region.width), None)
        )
        await pilot.click(field, offset=(field.region.width - 2, 0))  # on its text box
        await wait_for(pilot, lambda: isinstance(app.focused, Input))
        await pilot.press(*"navy")
        assert await pilot.click("#call-button")
        await wait_for(pilot, lambda: app.controller.records)
        await wait_idle(pilot)
        assert received[-1] == {"colour": "navy"}
