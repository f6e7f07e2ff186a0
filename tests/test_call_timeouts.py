"""A call's time limit counts silence, not work: a real server that keeps reporting progress
runs past `--timeout`; a silent one is cancelled at it, and the server is told
(`notifications/cancelled`), as it is when a person cancels (esc in the app, Ctrl+C headless)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from textual.widgets import Input

from fleet_tui.envs.call_clock import parse_timeout
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected, wait_for, wait_idle
from tests.cli_run import child_env, fleet_tui
from tests.fixtures.talkative import Talkative


def wait_until(condition, timeout: float = 15.0) -> bool:
    """Whether `condition()` came true within `timeout` seconds (polled)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_a_call_that_reports_progress_runs_past_its_timeout(talkative: Talkative) -> None:
    # 4 reports 1.5 s apart: 6 s in all, never 4 s without a word
    run = fleet_tui(
        "call", "--mcp", talkative.url, "pace", "-a", "reports=4", "-a", "every=1.5",
        "--timeout", "4",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "paced 4 reports" in run.stdout


def test_a_silent_call_is_cancelled_at_its_timeout_and_the_server_told(
    talkative: Talkative,
) -> None:
    run = fleet_tui("call", "--mcp", talkative.url, "hang", "--timeout", "1")
    assert run.returncode == 2
    assert "tool 'hang' was cancelled after 1s without an answer or progress" in run.stderr
    assert wait_until(lambda: talkative.cancelled == ["hang"])


def test_ctrl_c_on_a_headless_call_tells_the_server(talkative: Talkative) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "call", "--mcp", talkative.url, "hang"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(None),
    )
    try:
        assert talkative.hanging.wait(30)
        child.send_signal(signal.SIGINT)
        child.wait(30)
    finally:
        child.kill()
        child.wait()
    assert wait_until(lambda: talkative.cancelled == ["hang"])


@pytest.mark.parametrize("text", ["-1", "soon", "inf"])
def test_a_bad_timeout_is_refused_in_plain_words(text: str) -> None:
    run = fleet_tui("call", "--mcp", "http://127.0.0.1:1/mcp", "x", "--timeout", text)
    assert run.returncode == 2
    assert "--timeout" in run.stderr and repr(text) in run.stderr
    with pytest.raises(ValueError):
        parse_timeout(text)


def test_no_limit_is_zero_or_none() -> None:
    assert parse_timeout("0") is None and parse_timeout("none") is None
    assert parse_timeout("2.5") == 2.5


async def test_the_forms_timeout_cancels_a_silent_call_and_tells_the_server(
    talkative: Talkative,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]), timeout_s=300)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        field = app.query_one("#call-timeout", Input)
        assert field.value == "300"
        await app.show_tool("hang", {})
        field.value = "1"
        await pilot.pause()
        await pilot.click("#call-button")
        await wait_idle(pilot)
        record = app.controller.records[-1]
        assert record.status == "failed"
        assert "cancelled after 1s without an answer or progress" in record.message
        await wait_for(pilot, lambda: talkative.cancelled == ["hang"])


async def test_esc_cancels_a_running_call_and_tells_the_server(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("hang", {})
        await pilot.pause()
        await pilot.click("#call-button")
        await wait_for(pilot, talkative.hanging.is_set)
        await pilot.press("escape")
        await wait_idle(pilot)
        assert app.controller.records[-1].status == "cancelled"
        await wait_for(pilot, lambda: talkative.cancelled == ["hang"])
