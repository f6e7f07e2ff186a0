"""The Protocol pane lists every JSON-RPC message and HTTP request of a real server, filters
them by words, and opens one as pretty JSON, with secrets redacted."""

from __future__ import annotations

from textual.widgets import DataTable

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.message_screen import MessageScreen
from fleet_tui.ui.widgets.protocol_log import ProtocolPane
from tests.app_driver import SIZE, wait_connected, wait_for, wait_idle
from tests.fixtures.talkative import Talkative

TOKEN = "tok-9f8e7d6c5b4a"


async def test_the_protocol_pane_lists_filters_and_opens_messages(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.start_call("echo", {"text": "over the wire", "token": TOKEN})
        await wait_idle(pilot)
        await pilot.press("f10")
        pane = app.query_one(ProtocolPane)
        await wait_for(pilot, lambda: any(e.method == "tools/call" for e in pane.rows))
        directions = {(e.direction, e.kind) for e in pane.rows}
        assert {("out", "request"), ("in", "response"), ("http", "http")} <= directions
        assert app.focused.id == "protocol-filter"
        await pilot.press(*"tools/call in")
        await wait_for(pilot, lambda: [e.kind for e in pane.rows] == ["response"])
        [answer] = pane.rows
        assert answer.latency_s is not None
        table = app.query_one("#protocol-table", DataTable)
        table.focus()
        await pilot.press("enter")
        screen = await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen) and app.screen)
        assert screen.entry is answer
        assert '"text": "over the wire"' in screen.text
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, MessageScreen))
        app.query_one("#protocol-filter").value = "tools/call out"
        await wait_for(pilot, lambda: [e.kind for e in pane.rows] == ["request"])
        table.focus()
        await pilot.press("enter")
        screen = await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen) and app.screen)
        assert '"token": "[redacted]"' in screen.text and TOKEN not in screen.text
