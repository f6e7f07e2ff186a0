"""Input that does not parse is never sent without: the call and the copy are refused, the field
says why and takes the focus, and what was typed stays, in both views of the form."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer
from textual.widgets import Input, TextArea

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.form_fields import FieldWidget
from fleet_tui.ui.widgets.tool_form import ToolForm
from tests.app_driver import wait_connected, wait_for, wait_idle
from tests.fixtures.mcp_servers import serve_in_thread

SCHEMA = {"type": "object", "properties": {"meta": {}, "count": {"type": "integer"}}}
NOT_SENT = "(not sent)"
BAD_JSON = "invalid JSON: Expecting value at line 1 column 1"


@pytest.fixture(scope="module")
def note_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """An MCP server with one tool, `note`: `meta` is any JSON (a raw JSON field), `count` an
    integer. Records the arguments of every call it receives."""
    received: list[dict[str, Any]] = []
    server = MCPServer("note", log_level="WARNING")

    @server.tool(description="Take a note.")
    def note(meta: Any = NOT_SENT, count: Any = NOT_SENT) -> str:
        received.append({"meta": meta, "count": count})
        return "noted"

    server._tool_manager.get_tool("note").parameters = SCHEMA
    served = serve_in_thread("note", server)
    yield served.url, received
    served.stop()


@pytest.fixture
def app_and_calls(note_server) -> tuple[FleetTuiApp, list[dict[str, Any]]]:
    url, received = note_server
    received.clear()
    return FleetTuiApp(McpTarget(urls=[url])), received


def box(app: FleetTuiApp, name: str) -> Input:
    """The text box of the field `name` (built: the test has typed into it)."""
    field = next(f for f in app.query(FieldWidget) if f.node.path == (name,))
    return field.query_one(Input)


def notes(app: FleetTuiApp, name: str) -> str:
    field = next(f for f in app.query(FieldWidget) if f.node.path == (name,))
    return str(field.query_one(".field-notes").render())


def toasts(app: FleetTuiApp) -> list[str]:
    return [notification.message for notification in app._notifications]


async def start(pilot) -> None:
    """Wait for the tool's form, with the focus in its first field (`meta`)."""
    app = pilot.app
    await wait_connected(pilot)
    holder = app.tool_panel.query_one("#form-holder")
    await wait_for(pilot, lambda: any(b.has_focus for b in holder.query(Input)))


async def test_bad_json_in_a_field_is_not_sent_and_the_field_takes_the_focus(app_and_calls):
    app, received = app_and_calls
    async with app.run_test(size=(120, 35), notifications=True) as pilot:
        await start(pilot)
        await pilot.press("x", "tab")  # the focus leaves the field
        await wait_for(pilot, lambda: box(app, "meta") is not app.focused)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.focused is box(app, "meta"))
        await wait_idle(pilot)
        assert app.controller.records == [] and received == []
        assert box(app, "meta").value == "x"
        assert BAD_JSON in notes(app, "meta")
        assert any(BAD_JSON in toast for toast in toasts(app))
        await pilot.press("backspace", *'{"a": 1}', "ctrl+s")
        await wait_for(pilot, lambda: received)
    assert received == [{"meta": {"a": 1}, "count": NOT_SENT}]


async def test_the_call_button_from_outside_the_form_is_refused_too(app_and_calls):
    app, received = app_and_calls
    async with app.run_test(size=(120, 35), notifications=True) as pilot:
        await start(pilot)
        await pilot.press("x")
        app.tool_list.focus_filter()
        assert await pilot.click("#call-button")
        await wait_for(pilot, lambda: app.focused is box(app, "meta"))
        await wait_idle(pilot)
        assert app.controller.records == [] and received == []
        assert box(app, "meta").value == "x"


async def test_f4_keeps_the_fields_while_one_holds_bad_json_and_loses_nothing(app_and_calls):
    app, received = app_and_calls
    async with app.run_test(size=(120, 35), notifications=True) as pilot:
        await start(pilot)
        form = app.query_one(ToolForm)
        await pilot.press("x", "f4")
        await pilot.pause()
        assert not form.raw_mode
        assert any(BAD_JSON in toast for toast in toasts(app))
        assert box(app, "meta").value == "x" and app.focused is box(app, "meta")
        await pilot.press("backspace", *"[1]", "f4")  # now it parses: to the JSON view and back
        await wait_for(pilot, lambda: form.raw_mode)
        assert '"meta": [\n    1\n  ]' in form.query_one(TextArea).text
        await pilot.press("f4")
        await wait_for(pilot, lambda: not form.raw_mode)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: received)
    assert received == [{"meta": [1], "count": NOT_SENT}]


async def test_copy_as_command_is_refused_while_a_field_holds_bad_json(app_and_calls):
    app, _ = app_and_calls
    async with app.run_test(size=(120, 35), notifications=True) as pilot:
        await start(pilot)
        await pilot.press("x", "ctrl+y")
        await pilot.pause()
        assert app.clipboard == ""
        assert any(BAD_JSON in toast for toast in toasts(app))
        await pilot.press("backspace", "ctrl+y")
        await wait_for(pilot, lambda: app.clipboard)
    assert "note" in app.clipboard


async def test_an_integer_that_does_not_parse_is_not_sent_as_its_last_value(app_and_calls):
    app, received = app_and_calls
    async with app.run_test(size=(120, 35), notifications=True) as pilot:
        await start(pilot)
        await pilot.press("tab", *"12_")  # `12` parsed, then `12_` does not
        await pilot.pause()
        await pilot.press("shift+tab", "ctrl+s")
        await wait_for(pilot, lambda: app.focused is box(app, "count"))
        await wait_idle(pilot)
        assert app.controller.records == [] and received == []
        assert box(app, "count").value == "12_"
        assert "not an integer" in notes(app, "count")


async def test_bad_json_in_the_json_view_is_not_sent_and_is_kept(app_and_calls):
    app, received = app_and_calls
    async with app.run_test(size=(120, 35), notifications=True) as pilot:
        await start(pilot)
        form = app.query_one(ToolForm)
        await pilot.press("f4")
        await wait_for(pilot, lambda: form.raw_mode)
        editor = form.query_one(TextArea)
        await pilot.press("f7", *'{"meta": ', "ctrl+s")  # f7: select all, then type over it
        await pilot.pause()
        await wait_idle(pilot)
        assert app.controller.records == [] and received == []
        assert editor.text == '{"meta": ' and app.focused is editor
        error = str(form.query_one(".tool-form-raw-error").render())
        assert error == "invalid JSON: Expecting value at line 1 column 10"
