"""Headless commands on plain-action OpenEnv envs (real openenv-core servers, fleet-tui as a
child process): one reset per command and its observation printed, the observation a call
acted on, the server's validation details, the state after the session's reset, the WebSocket
frames in `--trace`, `info` on a WebSocket session, and a task refused up front."""

from __future__ import annotations

import json

from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.episode_envs import BOARD_README, LEDGER_QUESTION, QUESTIONS


def test_reset_resets_once_and_prints_the_first_item(quiz_server):
    done = fleet_tui("reset", "--openenv", quiz_server.base_url, "--seed", "5")
    assert done.returncode == 0, done.stderr
    assert QUESTIONS[0][0] in done.stdout and QUESTIONS[1][0] not in done.stdout
    episodes = {word for word in (done.stdout + done.stderr).split() if len(word) == 32}
    assert len(episodes) == 1, done.stdout + done.stderr
    assert "(seed 5 sent" in done.stdout  # the quiz does not report its seed back


def test_reset_json_has_the_observation(board_server):
    done = fleet_tui("reset", "--openenv", board_server.base_url, "--json")
    assert done.returncode == 0, done.stderr
    reset = json.loads(done.stdout)
    assert reset["result"]["structuredContent"]["board"] == [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
    assert isinstance(reset["seed"], int) and reset["at"] is not None


def test_call_prints_the_observation_it_acted_on_then_the_step(quiz_server):
    done = fleet_tui("call", "--openenv", quiz_server.base_url, "step", "-a", "answer=5")
    assert done.returncode == 0, done.stderr
    before, _, after = done.stdout.partition("step result:")
    assert "observation after the reset" in before and QUESTIONS[0][0] in before
    assert "reward: 1.0  done: true" in after


def test_call_json_has_the_reset_and_the_step(board_server):
    url = board_server.base_url
    done = fleet_tui("call", "--openenv", url, "step", "--args", '{"row": 0, "col": 2}', "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["reset"]["observation"]["structuredContent"]["board"][1][1] == 1
    assert answer["structuredContent"]["board"][0][2] == 2 and answer["done"] is True


def test_a_refused_action_shows_the_servers_details(board_server):
    url = board_server.base_url
    done = fleet_tui("call", "--openenv", url, "step", "--args", '{"row": 0}', "--unchecked")
    assert_one_line_error(done, 1, "refused the action")
    assert "col: Field required (missing)" in done.stdout
    as_json = fleet_tui(
        "call", "--openenv", url, "step", "--args", '{"row": 0}', "--unchecked", "--json"
    )
    answer = json.loads(as_json.stdout)
    assert answer["rejected"] is True and answer["structuredContent"]["errors"][0]["loc"] == ["col"]


def test_state_is_the_state_after_the_sessions_reset(ledger_server):
    done = fleet_tui("state", "--openenv", ledger_server.base_url, "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert LEDGER_QUESTION in done.stdout and "(seed 4 sent" in done.stdout
    assert done.stderr.count("Reset: new episode") == 1
    report = json.loads(fleet_tui("state", "--openenv", ledger_server.base_url, "--json").stdout)
    assert report["state"]["question"] == LEDGER_QUESTION
    assert report["state"]["episode_id"] is not None and report["reset"]["seed"] is not None


def test_state_is_shown_by_shape_as_observations_are(board_server):
    done = fleet_tui("state", "--openenv", board_server.base_url)
    assert done.returncode == 0, done.stderr
    assert "board:\n0 0 0\n0 1 0\n0 0 0" in done.stdout  # rows, not one cell a line


def test_trace_writes_the_ws_frames(board_server, tmp_path):
    trace = tmp_path / "trace.jsonl"
    url = board_server.base_url
    done = fleet_tui(
        "call", "--openenv", url, "step", "-a", "row=0", "-a", "col=0", "--trace", str(trace)
    )
    assert done.returncode == 0, done.stderr
    entries = [json.loads(line) for line in trace.read_text().splitlines()]
    frames = [(e["direction"], e["method"]) for e in entries if e["endpoint"].endswith("/ws")]
    assert frames[:2] == [("out", "reset"), ("in", "observation")]
    assert ("out", "step") in frames and ("in", "observation") in frames[2:]
    assert frames[-1] == ("out", "close")


def test_info_tells_the_websocket_session_its_tools_and_schemas(openenv_server, board_server):
    done = fleet_tui("info", "--openenv", openenv_server.base_url)
    assert done.returncode == 0, done.stderr
    assert "WebSocket session · up · 6 tools" in done.stdout
    assert "streamable HTTP" not in done.stdout
    board = json.loads(fleet_tui("info", "--openenv", board_server.base_url, "--json").stdout)
    (endpoint,) = board["endpoints"]
    assert endpoint["transport"] == "websocket" and endpoint["tool_count"] == 1
    assert board["metadata"]["name"] and "row" in board["schema"]["action"]["properties"]
    assert board["metadata"]["readme_content"] == BOARD_README


def test_info_shows_the_envs_readme_bounded_and_as_text(board_server):
    done = fleet_tui("info", "--openenv", board_server.base_url)
    assert done.returncode == 0, done.stderr
    lines = [line.strip() for line in done.stdout.splitlines()]
    start = lines.index("README:")
    assert lines[start + 1 : start + 4] == ["# Board", "", "Take a [b]corner[/b] to win."]
    assert "… 63 more lines (--json gives all of it)" in lines
    assert "\x1b" not in done.stdout


def test_a_task_on_a_server_without_task_routes_exits_2_first(board_server):
    done = fleet_tui("tools", "--openenv", board_server.base_url, "--openenv-task", "train:0")
    assert_one_line_error(done, 2, "has no task routes")
    assert "Reset" not in done.stderr and "Opening" not in done.stderr
