"""`fleet-tui replay --trajectory FILE TARGET`: an agent's transcript, in OpenAI chat-completions
form or Anthropic Messages form, JSON or JSONL, stepped through on a fresh env, reported per
step; a transcript whose results the env does not give back is a divergence (exit 1), and a
file that is no transcript a plain error (exit 2)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from fleet_tui.local import bundled_task_files
from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.stdio_server import __file__ as STDIO_SERVER

OPENAI = [
    {"role": "system", "content": "You are a careful agent."},
    {"role": "user", "content": "Echo hi, then add 2 and 3."},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "echo", "arguments": '{"text": "hi"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "hi"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_2",
                "type": "function",
                "function": {"name": "mcp__fleet-tui__add", "arguments": '{"a": 2, "b": 3}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "5"}]},
    {"role": "assistant", "content": "Done: 5."},
]

ANTHROPIC = [
    {"role": "user", "content": "Echo twice."},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Echoing."},
            {"type": "tool_use", "id": "toolu_1", "name": "echo", "input": {"text": "one"}},
        ],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "one"}],
    },
    {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "toolu_2", "name": "echo", "input": {"text": "two"}}
        ],
    },
    {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_2",
                "content": [{"type": "text", "text": "what the env never said"}],
            }
        ],
    },
]


def test_an_openai_transcript_replays_step_by_step(mcp_alpha, tmp_path: Path):
    transcript = tmp_path / "openai.json"
    transcript.write_text(json.dumps({"messages": OPENAI}))
    run = fleet_tui("replay", "--trajectory", str(transcript), "--mcp", mcp_alpha.url)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert "echo: match" in lines[0] and "add: match" in lines[1]
    assert "2/2 steps match" in run.stdout


def test_an_anthropic_transcript_that_diverges_exits_1(mcp_alpha, tmp_path: Path):
    transcript = tmp_path / "anthropic.jsonl"
    transcript.write_text("\n".join(json.dumps(message) for message in ANTHROPIC))
    run = fleet_tui("replay", "--trajectory", str(transcript), "--mcp", mcp_alpha.url)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "echo: match" in run.stdout and "echo: DIVERGED" in run.stdout
    assert "what the env never said" in run.stdout
    assert "1/2 steps match" in run.stdout


def test_a_file_that_is_no_transcript_is_a_plain_error(mcp_alpha, tmp_path: Path):
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "no tools here"}]))
    run = fleet_tui("replay", "--trajectory", str(chat), "--mcp", mcp_alpha.url)
    assert_one_line_error(run, 2, "no tool calls")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json\n[neither")
    run = fleet_tui("replay", "--trajectory", str(garbage), "--mcp", mcp_alpha.url)
    assert_one_line_error(run, 2, "neither JSON nor JSONL")


def test_odd_shapes_in_a_transcript_are_passed_over(mcp_alpha, tmp_path: Path):
    odd = [
        {"role": "assistant", "tool_calls": "not a list"},
        {"role": "assistant", "tool_calls": ["not an object", 3]},
        {
            "role": "tool",
            "tool_call_id": "x",
            "content": [{"type": "image", "source": {"data": 0}}],
        },
        *OPENAI,
    ]
    transcript = tmp_path / "odd.json"
    transcript.write_text(json.dumps(odd))
    run = fleet_tui("replay", "--trajectory", str(transcript), "--mcp", mcp_alpha.url)
    assert "echo: match" in run.stdout and "add: match" in run.stdout, run.stdout + run.stderr


ECHO_TWICE = [ANTHROPIC[1], ANTHROPIC[2]]


def test_every_target_form_reads_after_the_transcript(mcp_alpha, tmp_path: Path):
    """`--trajectory FILE` with a stdio server, and with an env key on the embedded host
    (`--local tracker`, whose key was once read as a session file)."""
    transcript = tmp_path / "echo.json"
    transcript.write_text(json.dumps(ECHO_TWICE))
    stdio = shlex.join([sys.executable, str(STDIO_SERVER)])
    run = fleet_tui("replay", "--trajectory", str(transcript), "--stdio", stdio)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1/1 steps match" in run.stdout
    for where in (["--local", "tracker"], ["tracker", "--local"]):
        run = fleet_tui("replay", "--trajectory", str(transcript), *where)
        assert run.returncode == 1, run.stdout + run.stderr  # the tracker has no echo tool
        assert "unknown tool: the env has no tool 'echo' (not made)" in run.stdout


def test_a_transcript_replay_ends_with_the_tasks_verdict(tmp_path: Path):
    """`--tasks FILE --task KEY`: the task's verifier runs after the transcript's calls."""
    assign = {"issue_id": 5, "changes": {"assignee": "carol", "status": "in_progress"}}
    call = {"id": "c1", "type": "function"}
    call["function"] = {"name": "update_issue", "arguments": json.dumps(assign)}
    transcript = tmp_path / "assign.json"
    transcript.write_text(json.dumps([{"role": "assistant", "tool_calls": [call]}]))
    tasks = str(bundled_task_files()["tracker"])
    key = ["--task", "tracker-assign-safari-crash", "--verifier-mode", "local"]
    run = fleet_tui("replay", "--trajectory", str(transcript), "--local", "--tasks", tasks, *key)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "update_issue: no record" in run.stdout
    assert "verifier (tracker-assign-safari-crash): PASS, score 1" in run.stdout
    untouched = tmp_path / "look.json"
    look = {"id": "c1", "type": "function", "function": {"name": "list_users", "arguments": ""}}
    untouched.write_text(json.dumps([{"role": "assistant", "tool_calls": [look]}]))
    run = fleet_tui("replay", "--trajectory", str(untouched), "--local", "--tasks", tasks, *key)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "verifier (tracker-assign-safari-crash): FAIL, score 0" in run.stdout
    run = fleet_tui("replay", "--trajectory", str(untouched), "--local", "--tasks", tasks)
    assert_one_line_error(run, 2, "holds 5 tasks: name one with --task")
