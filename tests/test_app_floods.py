"""The app under floods from a real MCP server (tests/fixtures/flood_server.py, a child process
over stdio, so the memory measured here is the app's): a reply of very many content blocks,
100,000 log messages, a storm of progress reports, a thousand sampling requests at once.

How fast the app takes a flood next to a headless session is in bench/bench_floods.py."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time

import pytest
from textual.widgets import ProgressBar, Static

from fleet_tui.envs.block_merge import MAX_BLOCKS
from fleet_tui.envs.request_line import MAX_OPEN, MAX_WAITING
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.sampling_screen import SamplingScreen
from fleet_tui.ui.widgets.server_log import MAX_ENTRIES, ServerLogPane
from tests.app_driver import (
    SIZE,
    call,
    rendered_text,
    resident_mb,
    wait_connected,
    wait_for,
    wait_idle,
)
from tests.cli_run import child_env

FLOOD_SERVER = f"{sys.executable} -m tests.fixtures.flood_server"
FLOOD = McpTarget(stdio=[FLOOD_SERVER])
FLOOD_ARGS = ["--stdio", FLOOD_SERVER]


async def test_a_reply_of_150k_text_blocks_is_merged_and_memory_stays_bounded() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        before = resident_mb()
        record = await call(pilot, "blocks", {"count": 150_000}, timeout=120)
        grown = resident_mb() - before
        assert record.status == "ok"
        [block] = record.result.blocks
        assert block.text.startswith("b0\nb1\nb2\n") and block.text.endswith("\nb149999")
        assert "149,999 blocks merged" in rendered_text(app)
        assert grown < 200, f"the app grew by {grown:.0f} MB"
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, 30)
    assert app.return_code == 0


async def test_a_reply_of_few_blocks_keeps_each_block() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        record = await call(pilot, "blocks", {"count": MAX_BLOCKS})
        assert [b.text for b in record.result.blocks] == [f"b{i}" for i in range(MAX_BLOCKS)]
        assert "merged" not in rendered_text(app)


async def test_100k_log_messages_are_all_counted_and_keys_work_during_the_flood() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        pane = app.query_one(ServerLogPane)
        app.start_call("chatter", {"count": 100_000})
        await wait_for(pilot, lambda: pane.received > 1000)
        await pilot.press("f9")  # the Log pane, while messages pour in
        await wait_for(pilot, lambda: app.query_one("#sidebar").active == "pane-log", 10)
        assert app.call_running
        await wait_for(pilot, lambda: pane.received == 100_000, 600)
        await wait_idle(pilot)
        assert app.controller.records[-1].status == "ok"
        # Messages are counted as they arrive and kept in batches, once a frame: the last batch
        # can still be on its way when the call ends.
        await wait_for(pilot, lambda: pane.entries and pane.entries[-1].data == "line 99999")
        assert len(pane.entries) == MAX_ENTRIES
        count = str(app.query_one("#log-count", Static).content)
        assert count == (
            f"{MAX_ENTRIES}/{MAX_ENTRIES} messages from debug up "
            "(of 100,000 received; the older ones are dropped)"
        )
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, 30)
    assert app.return_code == 0


async def test_a_storm_of_progress_reports_ends_with_the_last_one_shown() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.start_call("progress", {"count": 20_000})
        bar = app.query_one("#call-progress-bar", ProgressBar)
        await wait_for(pilot, lambda: bar.progress > 0)
        await wait_idle(pilot, 300)
        assert app.controller.records[-1].status == "ok"
        assert not app.query_one("#call-progress").display  # the call ended: no bar left


def open_dialogs(app: FleetTuiApp) -> list[SamplingScreen]:
    return [screen for screen in app.screen_stack if isinstance(screen, SamplingScreen)]


async def test_a_thousand_sampling_requests_open_a_few_dialogs_and_refuse_past_the_line() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.start_call("ask", {"count": 1000})
        refused_at_once = 1000 - MAX_OPEN - MAX_WAITING
        await wait_for(
            pilot, lambda: app.server_dialogs.server_requests.refused == refused_at_once, 60
        )
        assert app.server_dialogs.server_requests.waiting == MAX_WAITING
        assert len(open_dialogs(app)) == MAX_OPEN
        await pilot.pause()
        box = app.screen.query_one(".ask-box")
        assert box.border_subtitle == f"{MAX_WAITING} more server requests waiting"
        await pilot.press("ctrl+d")  # keys still work: decline one, the next waiting one opens
        await wait_for(pilot, lambda: app.server_dialogs.server_requests.waiting == MAX_WAITING - 1)
        assert len(open_dialogs(app)) == MAX_OPEN
        while open_dialogs(app):
            await pilot.press("ctrl+d")
        record = await wait_for(
            pilot, lambda: app.controller.records[-1].result and app.controller.records[-1]
        )
        outcome = json.loads(record.result.blocks[0].text)
        assert outcome["answered"] == []
        refused = [m for m in outcome["refused"] if "requests already wait" in m]
        declined = [m for m in outcome["refused"] if "declined" in m]
        assert len(refused) == refused_at_once
        assert len(declined) == MAX_OPEN + MAX_WAITING


async def test_quitting_during_a_sampling_flood_closes_the_app() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.start_call("ask", {"count": 1000})
        await wait_for(pilot, lambda: app.server_dialogs.server_requests.waiting == MAX_WAITING, 60)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, 30)
    assert app.return_code == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["sigterm", "sighup"]
)
def test_a_signal_during_a_sampling_flood_ends_the_app(tmp_path, sig, code) -> None:
    """In a real terminal: dialogs open, a hundred more requests waiting, then SIGTERM or
    SIGHUP ends the app (with its code) and the server with it."""
    from tests.test_app_signals import Terminal, wait_until

    command = [sys.executable, "-m", "fleet_tui", *FLOOD_ARGS, "--no-record"]
    terminal = Terminal(tmp_path, child_env(), *command)
    try:
        wait_until(lambda: "4/4 tools" in terminal.screen(), "the app to list the tools")
        for keys in (["-l", "ask"], ["Enter"], ["-l", "1000"], ["C-s"]):
            terminal.tmux("send-keys", "-t", "app", *keys)
            time.sleep(0.5)
        waiting = f"{MAX_WAITING} more server requests waiting"
        wait_until(lambda: waiting in terminal.screen(), "the flood's dialogs")
        signalled = time.monotonic()
        os.kill(terminal.pid, sig)
        assert terminal.exit_code() == code, terminal.screen()
        assert time.monotonic() - signalled < 20  # it took over 70 s, or kill -9
    finally:
        if not terminal.ended:
            os.kill(terminal.pid, signal.SIGKILL)
        terminal.close()
