"""Reset with env keywords on a real openenv-core env (ShapesEnv: `start_cell` and `size`
change the board; it ignores the seed): the env, the headless commands (subprocesses), the
session recording and its replay, and the app's reset dialog."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial

import pytest

from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.forms.typed_text import keywords_from_text
from fleet_tui.session.events import ResetEvent
from fleet_tui.session.reader import load_session
from fleet_tui.session.replay import replay_session
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, rendered_text, wait_connected, wait_for, wait_idle
from tests.fixtures.openenv_servers import REPO_ROOT
from tests.recorded import call_tool, recorded

pytestmark = pytest.mark.timeout(90)


def board(result) -> list[list[int]]:
    return result.structured["board"]


async def test_reset_keywords_reach_the_env_and_change_the_task(shapes_openenv_server):
    env = OpenEnvEnv(OpenEnvTarget(url=shapes_openenv_server.base_url), reset_on_connect=False)
    await env.connect()
    try:
        plain = await env.reset(5)
        moved = await env.reset(5, options={"start_cell": [2, 3], "size": [3, 4]})
    finally:
        await env.close()
    assert board(plain.result)[0][0] == 1 and len(board(plain.result)) == 6
    assert board(moved.result) == [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]


async def test_a_seed_the_env_does_not_report_is_not_announced_as_used(shapes_openenv_server):
    env = OpenEnvEnv(OpenEnvTarget(url=shapes_openenv_server.base_url), reset_on_connect=False)
    await env.connect()
    try:
        outcome = await env.reset(5)
    finally:
        await env.close()
    assert "(seed 5 sent, not reported back)" in outcome.message


async def test_the_targets_keywords_go_with_every_reset(shapes_openenv_server):
    target = OpenEnvTarget(url=shapes_openenv_server.base_url, reset_options={"size": [2, 2]})
    env = OpenEnvEnv(target, reset_on_connect=False)
    await env.connect()
    try:
        assert board((await env.reset()).result) == [[1, 0], [0, 0]]
        outcome = await env.reset(options={"start_cell": [1, 1]})
        assert board(outcome.result) == [[0, 0], [0, 1]]
    finally:
        await env.close()


def test_keywords_typed_on_one_line():
    typed = keywords_from_text("dataset_name=leg_counting start_cell=[2,3] note='two words'")
    assert typed == {"dataset_name": "leg_counting", "start_cell": [2, 3], "note": "two words"}
    assert keywords_from_text('{"fen": "8/8/8/8/8/8/8/K6k w - - 0 1"}')["fen"].startswith("8/8")
    assert keywords_from_text("  ") == {}
    with pytest.raises(ValueError, match="key=value, not 'oops'"):
        keywords_from_text("oops")
    with pytest.raises(ValueError, match="invalid JSON"):
        keywords_from_text("{1: 2")


def fleet_tui(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fleet_tui", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_headless_reset_and_call_take_keywords(shapes_openenv_server, tmp_path):
    url = shapes_openenv_server.base_url
    shapes = ["-O", '{"size": [3, 4]}', "-o", "start_cell=[2,3]", "--save-media", str(tmp_path)]
    done = fleet_tui("reset", "--openenv", url, *shapes)
    assert done.returncode == 0, done.stderr
    assert "board:\n0 0 0 0\n0 0 0 0\n0 0 0 1" in done.stdout
    assert "Start at row 2, column 3.\nYour move." in done.stdout
    assert done.stdout.count(f"] {tmp_path}") == 2
    done = fleet_tui("reset", "--openenv", url, "-o", "size=[2,2]", "--json")
    assert json.loads(done.stdout)["result"]["structuredContent"]["board"] == [[1, 0], [0, 0]]
    done = fleet_tui("call", "--openenv", url, "-o", "size=[2,3]", "step", "-a", "message=hi")
    assert done.returncode == 0, done.stderr
    assert "board:\n1 0 0\n2 0 0" in done.stdout


def test_keywords_without_an_openenv_server_or_unreadable_are_refused():
    done = fleet_tui("reset", "--mcp", "http://127.0.0.1:9/mcp", "-o", "size=[2,2]")
    assert done.returncode == 2
    assert "-o and -O are env keywords for an OpenEnv server's reset" in done.stderr
    done = fleet_tui("reset", "--openenv", "http://127.0.0.1:9", "-O", "[1]")
    assert done.returncode == 2 and "-O must be a JSON object" in done.stderr
    done = fleet_tui("reset", "--openenv", "http://127.0.0.1:9", "-o", "size")
    assert done.returncode == 2 and "-o expects KEY=VALUE" in done.stderr


async def test_recorded_keywords_are_replayed(shapes_openenv_server, tmp_path):
    target = OpenEnvTarget(url=shapes_openenv_server.base_url)
    path = tmp_path / "session.jsonl"
    async with recorded(target, path, partial(OpenEnvEnv, reset_on_connect=False)) as session:
        await session.reset(3, {"start_cell": [1, 2], "size": [2, 3]})
        await call_tool(session, "step", {"message": "hi", "column": 0})
    session = load_session(path)
    (reset,) = [event for event in session.events if isinstance(event, ResetEvent)]
    assert reset.options == {"start_cell": [1, 2], "size": [2, 3]}
    replayed = OpenEnvEnv(target, reset_on_connect=False)
    await replayed.connect()
    try:
        await replayed.list_tools()
        report = await replay_session(session, replayed)
    finally:
        await replayed.close()
    assert report.resets == 1 and report.ok, [step.diff for step in report.steps]


async def test_the_reset_dialog_takes_env_keywords(shapes_openenv_server):
    app = FleetTuiApp(OpenEnvTarget(url=shapes_openenv_server.base_url))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("tab", *"size=[2,2] start_cell=[1,0]", "enter")
        await wait_for(pilot, lambda: app.controller.records[-1].tool == "<reset>")
        await wait_idle(pilot)
        record = app.controller.records[-1]
        asked = {key: value for key, value in record.arguments.items() if key != "seed"}
        assert asked == {"size": [2, 2], "start_cell": [1, 0]}
        assert board(record.result) == [[0, 0], [1, 0]]
        await wait_for(pilot, lambda: "0 0\n1 0" in rendered_text(app))


async def test_the_reset_dialog_says_what_it_cannot_read_and_keeps_it(shapes_openenv_server):
    from textual.widgets import Input, Label

    app = FleetTuiApp(OpenEnvTarget(url=shapes_openenv_server.base_url))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        count = len(app.controller.records)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("tab", *"size", "enter")
        await pilot.pause()
        error = app.screen.query_one("#reset-error", Label)
        assert "write each keyword as key=value, not 'size'" in str(error.content)
        assert app.screen.query_one("#keywords", Input).value == "size"
        assert len(app.controller.records) == count
