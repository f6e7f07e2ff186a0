"""Tools that run as MCP tasks (protocol 2025-11-25): server-everything's
`simulate-research-query` (taskSupport "required") is called as a task, its status polled with
`tasks/get`, its result fetched with `tasks/result`, and the task cancelled with `tasks/cancel`
when the call is; against the real server over stdio and streamable HTTP. What server-everything
cannot show (a failing task, a poll interval, a tool whose task support is optional) against a
server of the tests' own (tests/fixtures/task_server.py)."""

from __future__ import annotations

import json
import re

from tests.cli_run import fleet_tui
from tests.fixtures.task_server import COMMAND as TASK_SERVER

TOOL = "simulate-research-query"
STAGES = ["Gathering sources", "Analyzing content", "Synthesizing findings", "Generating report"]


def test_a_task_only_tool_is_called_as_a_task_and_prints_its_result(everything):
    result = fleet_tui(
        "call", "--stdio", everything.stdio_command, TOOL, "--args", '{"topic": "tides"}'
    )

    assert result.returncode == 0, result.stderr
    assert "# Research Report: tides" in result.stdout
    assert "requires task augmentation" not in result.stdout + result.stderr


def test_each_status_change_of_the_task_is_a_progress_line(everything):
    result = fleet_tui(
        "call", "--stdio", everything.stdio_command, TOOL, "--args", '{"topic": "tides"}'
    )

    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("progress:")]
    for stage in STAGES:
        assert any(f"task working: {stage}..." in line for line in lines), result.stderr
    assert "task completed" in lines[-1]


def test_a_task_call_in_json_has_the_result_under_wire_names(everything_http):
    result = fleet_tui(
        "call", "--mcp", everything_http.url, TOOL, "--args", '{"topic": "tides"}', "--json"
    )

    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["tool"], answer["isError"]) == (TOOL, False)
    assert "# Research Report: tides" in answer["blocks"][0]["text"]


def test_a_task_that_asks_for_input_gets_the_elicitation_answer(everything):
    result = fleet_tui(
        "call",
        "--stdio",
        everything.stdio_command,
        TOOL,
        "--args",
        '{"topic": "python", "ambiguous": true}',
        "--elicit",
        '{"interpretation": "snake"}',
    )

    assert result.returncode == 0, result.stderr
    assert "task input_required" in result.stderr
    assert "# Research Report: python (snake)" in result.stdout


def test_a_task_call_past_its_time_limit_cancels_the_task_on_the_server(everything):
    result = fleet_tui(
        "call",
        "--stdio",
        everything.stdio_command,
        TOOL,
        "--args",
        '{"topic": "tides"}',
        "--timeout",
        "0.3",
    )

    assert result.returncode != 0
    assert "was cancelled after 0.3s" in result.stderr
    # the server's own log: its research could not go on once the task was cancelled
    assert 'from terminal status "cancelled"' in result.stderr


def test_a_failed_task_is_a_tool_error_with_the_servers_words():
    result = fleet_tui("call", "--stdio", TASK_SERVER, "doomed")

    assert result.returncode == 1
    assert "task failed: disk full" in result.stderr
    assert result.stdout.strip() == "disk full"
    assert "reported an error" in result.stderr


def test_the_task_is_polled_no_faster_than_its_poll_interval():
    result = fleet_tui("call", "--stdio", TASK_SERVER, "paced")

    assert result.returncode == 0, result.stderr
    found = re.search(r"shortest gap ([\d.]+)s over (\d+) polls", result.stdout)
    assert found, result.stdout
    assert float(found[1]) >= 0.39 and int(found[2]) >= 2  # the server asks for 400 ms


def test_a_tool_whose_task_support_is_optional_runs_as_a_task_only_when_asked():
    plain = fleet_tui("call", "--stdio", TASK_SERVER, "either")
    as_task = fleet_tui("call", "--stdio", TASK_SERVER, "either", "--as-task")

    assert (plain.returncode, plain.stdout.strip()) == (0, "plain call")
    assert (as_task.returncode, as_task.stdout.strip()) == (0, "ran as a task")
    assert "task completed" in as_task.stderr
