"""The Protocol pane lists every JSON-RPC message and HTTP request of a real server, filters
them by words, and opens one as pretty JSON, with secrets redacted."""

from __future__ import annotations

from textual.widgets import DataTable

from fleet_tui.envs.targets import McpTarget
from fleet_tui.envs.traffic import KEPT_STRING_CHARS
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


async def test_down_from_the_filter_moves_into_the_table(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("f10")
        pane = app.query_one(ProtocolPane)
        await wait_for(pilot, lambda: pane.rows)
        assert app.focused.id == "protocol-filter"
        await pilot.press("down")
        assert app.focused.id == "protocol-table"


async def test_a_big_reply_shows_its_long_strings_cut_in_the_middle_until_x(
    talkative: Talkative,
) -> None:
    text = "begin " + "A" * 100_000 + " finish"
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.start_call("echo", {"text": text})
        await wait_idle(pilot)
        await pilot.press("f10", *"tools/call in", "down", "enter")
        screen = await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen) and app.screen)
        assert "long strings kept as their start and end" in str(
            screen.query_one("#message-heading").render()
        )
        assert '"text": "begin AAA' in screen.text and "AAA finish" in screen.text
        assert len(screen.text) < 5_000  # the strings as their start and end: the shape reads
        await pilot.press("x")
        assert len(screen.text) > KEPT_STRING_CHARS  # as kept: the start and end of each
        await pilot.press("x")
        assert len(screen.text) < 5_000


async def test_the_zoomed_pane_draws_its_rows_at_the_full_width(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_connected(pilot)
        await pilot.press("f10")
        pane = app.query_one(ProtocolPane)
        table = app.query_one("#protocol-table", DataTable)
        await wait_for(pilot, lambda: pane.rows)
        cut = [e.seq for e in pane.rows if str(table.get_row(str(e.seq))[0]).endswith("…")]
        assert cut  # the pane beside the form cuts the longer rows
        await pilot.press("ctrl+z")
        assert not app.query_one("#work").display and app.query_one("#zoom-bar").display
        await wait_for(
            pilot, lambda: not any(str(table.get_row(str(seq))[0]).endswith("…") for seq in cut)
        )
        await pilot.press("ctrl+z")
        assert app.query_one("#work").display and not app.query_one("#zoom-bar").display
