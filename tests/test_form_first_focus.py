"""Opening a form puts the focus where typing fills a field: the first input, inside nested
objects too (not their fold header); the focused field's line is marked."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Input

from fleet_tui.envs.base import Tool
from fleet_tui.ui.widgets.tool_panel import ToolPanel
from tests.app_driver import wait_for

NESTED_SEARCH = Tool(
    name="search",
    input_schema={
        "type": "object",
        "properties": {
            "query": {
                "type": "object",
                "properties": {"text": {"type": "string"}, "limit": {"type": "integer"}},
            },
        },
        "required": ["query"],
    },
)


class PanelHost(App):
    """The tool panel alone, as the app shows it."""

    CSS_PATH = "../fleet_tui/ui/app.tcss"

    def compose(self) -> ComposeResult:
        yield ToolPanel(id="tool-panel")


async def opened(pilot, tool: Tool) -> ToolPanel:
    panel = pilot.app.query_one(ToolPanel)
    await panel.show_tool(tool)
    await pilot.pause()
    panel.focus_form()
    await wait_for(  # a field's input (the call's timeout box may have it a moment first)
        pilot,
        lambda: (
            isinstance(focused := pilot.app.focused, Input)
            and "field-line" in focused.parent.classes
        ),
    )
    return panel


async def test_typing_after_opening_a_nested_form_fills_its_first_field():
    app = PanelHost()
    async with app.run_test(size=(100, 30)) as pilot:
        panel = await opened(pilot, NESTED_SEARCH)
        await pilot.press(*"safari")
        assert panel.arguments() == {"query": {"text": "safari"}}


async def test_the_focused_fields_line_is_marked():
    app = PanelHost()
    async with app.run_test(size=(100, 30)) as pilot:
        await opened(pilot, NESTED_SEARCH)
        line = app.focused.parent
        assert "field-line" in line.classes
        marked = line.styles.background
        app.query_one("#call-button").focus()
        await pilot.pause()
        assert line.styles.background != marked  # the mark goes with the focus
