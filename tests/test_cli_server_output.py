"""Headless commands show what a real server says on its own, on stderr: a call's progress
(lines when stderr is not a terminal, a bar redrawn in place on one) and, with `--log-level`,
its log messages from that level up."""

from __future__ import annotations

import io
import json
from pathlib import Path

from fleet_tui.commands.server_output import TRACE_MAX_BYTES, ServerOutput
from fleet_tui.envs.server_events import ServerLog
from fleet_tui.session_records import CallProgress, CallRecord
from tests.cli_run import fleet_tui
from tests.fixtures.talkative import Talkative


def test_call_prints_the_servers_progress_on_stderr(talkative: Talkative) -> None:
    talkative.gate.set()
    run = fleet_tui("call", "--mcp", talkative.url, "slow", "-a", "steps=3")
    assert run.returncode == 0, run.stderr
    assert "done after 3 steps" in run.stdout
    progress = [line for line in run.stderr.splitlines() if line.startswith("progress: ")]
    assert progress == [
        "progress: [########----------------] 1/3 step 1 of 3",
        "progress: [################--------] 2/3 step 2 of 3",
        "progress: [########################] 3/3 step 3 of 3",
    ]


def test_log_level_prints_log_messages_from_that_level_up(talkative: Talkative) -> None:
    loud = fleet_tui(
        "call", "--mcp", talkative.url, "say", "-a", "text=disk full", "-a", "level=error",
        "--log-level", "WARNING",
    )  # fmt: skip
    quiet = fleet_tui(
        "call", "--mcp", talkative.url, "say", "-a", "text=all fine", "-a", "level=info",
        "--log-level", "warning",
    )  # fmt: skip
    silent = fleet_tui(
        "call", "--mcp", talkative.url, "say", "-a", "text=unasked", "-a", "level=error"
    )
    assert [loud.returncode, quiet.returncode, silent.returncode] == [0, 0, 0], loud.stderr
    assert "[error] talk: disk full" in loud.stderr.splitlines()
    assert "all fine" not in quiet.stderr and "all fine" in quiet.stdout
    assert "unasked" not in silent.stderr
    assert talkative.levels == ["warning", "warning"]


def test_an_unknown_log_level_is_refused_before_connecting() -> None:
    run = fleet_tui("call", "--mcp", "http://127.0.0.1:1/mcp", "x", "--log-level", "chatty")
    assert run.returncode == 2
    assert "unknown log level 'chatty'" in run.stderr


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_progress_is_one_bar_redrawn_in_place() -> None:
    stream = Terminal()
    output = ServerOutput("info", stream)
    call = CallRecord(number=1, tool="slow", arguments={})
    output.hear(CallProgress(call, 1, 2, "half"))
    output.hear(CallProgress(call, 2, 2, "all"))
    output.hear(ServerLog("http://x/mcp", "info", "said meanwhile"))
    output.hear(CallProgress(call, 5, None, None))
    output.end_bar()
    assert stream.getvalue() == (
        "\r\x1b[2K[############------------] 1/2 half"
        "\r\x1b[2K[########################] 2/2 all\n"
        "[info] said meanwhile\n"
        "\r\x1b[2K[........working.........] 5\n"
    )


def test_trace_writes_every_message_both_ways_without_secrets(
    talkative: Talkative, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    api_key = "fk-live-0123456789abcdef"
    run = fleet_tui(
        "call", "--mcp", talkative.url, "echo", "-a", f"text=key {api_key}",
        "-a", "token=tok-9f8e7d6c5b4a", "--trace", str(trace),
        env={"FLEET_API_KEY": api_key},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    text = trace.read_text()
    assert api_key not in text and "tok-9f8e7d6c5b4a" not in text
    entries = [json.loads(line) for line in text.splitlines()]
    rpc = {(e["direction"], e["kind"], e["method"]) for e in entries}
    assert {
        ("out", "request", "initialize"),
        ("in", "response", "initialize"),
        ("out", "request", "tools/list"),
        ("in", "response", "tools/list"),
        ("out", "request", "tools/call"),
        ("in", "response", "tools/call"),
    } <= rpc
    [answer] = [e for e in entries if e["kind"] == "response" and e["method"] == "tools/call"]
    assert answer["message"]["result"]["content"][0]["text"] == "key [redacted]"
    assert answer["latency_s"] > 0 and answer["size_bytes"] > 0
    assert any(e["direction"] == "http" and e["status"] == 200 for e in entries)
    assert trace.stat().st_mode & 0o777 == 0o600


def test_a_reused_trace_becomes_private_and_keeps_its_lines(
    talkative: Talkative, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    trace.write_text('{"earlier": true}\n')
    trace.chmod(0o644)
    run = fleet_tui("call", "--mcp", talkative.url, "echo", "-a", "text=hi", "--trace", str(trace))
    assert run.returncode == 0, run.stderr
    assert trace.stat().st_mode & 0o777 == 0o600
    lines = trace.read_text().splitlines()
    assert lines[0] == '{"earlier": true}' and len(lines) > 1


def test_a_trace_stops_at_its_cap_with_a_line_saying_so(
    talkative: Talkative, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    size = 60_000  # 600 log messages of 60 KB: about 36 MB of trace, past the cap
    run = fleet_tui(
        "call", "--mcp", talkative.url, "flood", "-a", "count=600", "-a", f"size={size}",
        "--trace", str(trace),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "done" in run.stdout
    assert TRACE_MAX_BYTES - 200_000 < trace.stat().st_size <= TRACE_MAX_BYTES + 100
    last = trace.read_text().splitlines()[-1]
    assert json.loads(last) == {"note": "trace cut at 32 MB"}


def test_a_trace_that_cannot_be_written_is_refused_in_plain_words(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    run = fleet_tui(
        "call", "--mcp", "http://127.0.0.1:1/mcp", "x", "--trace", str(blocker / "trace.jsonl")
    )
    assert run.returncode == 2
    assert "cannot write the trace" in run.stderr
    assert "Traceback" not in run.stderr
