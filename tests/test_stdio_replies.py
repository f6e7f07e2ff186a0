"""Replies over stdio that cannot be used fail their call only: a reply over 64 MB (as over
streamable HTTP), a line cut mid-JSON, a line that is not JSON-RPC; the endpoint stays up and
the next call works. A reply cut by the server exiting fails its call in plain words. A result
whose structuredContent is not an object shows its content with the problem named (the union,
headless `call`, the app).
Against a real child process that writes its JSON-RPC by hand (tests/fixtures/raw_stdio.py)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from fleet_tui.envs.base import EndpointState
from fleet_tui.envs.mcp_union import McpUnion
from fleet_tui.envs.stdio_lines import LineSplitter, LongLine, Replies
from tests.cli_run import fleet_tui

RAW_STDIO = shlex.join([sys.executable, str(Path(__file__).parent / "fixtures" / "raw_stdio.py")])


@pytest.fixture
async def union():
    union = McpUnion([], stdio=[RAW_STDIO], backoff_s=0.01)
    await union.connect()
    yield union
    await union.close()


def state(union: McpUnion) -> EndpointState:
    [status] = union.endpoints()
    return status.state


async def test_a_reply_over_64_mb_fails_that_call_only(union):
    result = await union.call_tool("sized", {"bytes": 70 * 2**20})

    assert result.is_error and result.error_kind == "unreadable reply"
    assert "result too large: over 64 MB" in result.text()
    assert state(union) == EndpointState.UP
    assert (await union.call_tool("fine", {})).text() == "ok"


async def test_a_large_reply_under_the_cap_arrives_whole(union):
    result = await union.call_tool("sized", {"bytes": 20 * 2**20})

    assert not result.is_error
    assert result.text() == "x" * (20 * 2**20)


@pytest.mark.parametrize(
    ("tool", "says"),
    [
        ("cut", "not valid JSON, most likely cut short (EOF while parsing"),
        ("not-jsonrpc", "not a JSON-RPC message"),
    ],
)
async def test_an_unreadable_reply_fails_that_call_only(union, tool, says):
    result = await union.call_tool(tool, {})

    assert result.is_error and result.error_kind == "unreadable reply"
    assert says in result.text() and "validation error" not in result.text()
    assert state(union) == EndpointState.UP
    assert (await union.call_tool("fine", {})).text() == "ok"


async def test_a_reply_cut_by_the_server_exiting_fails_its_call_in_plain_words(union):
    result = await union.call_tool("dies-mid-reply", {})

    assert result.is_error and result.error_kind == "unreadable reply"
    assert "not valid JSON, most likely cut short (EOF while parsing" in result.text()


def test_lines_are_split_across_chunks_and_a_long_one_keeps_only_its_ends():
    splitter = LineSplitter(limit=10)

    lines = [*splitter.feed(b'{"a"'), *splitter.feed(b":1}\n" + b"y" * 8 + b"z" * 8 + b"\nrest")]

    assert lines[0] == b'{"a":1}'
    assert lines[1] == LongLine(16, b"y" * 8 + b"z" * 8, b"y" * 8 + b"z" * 8)
    assert splitter.rest() == b"rest" and splitter.rest() is None


async def test_a_structured_content_that_is_not_an_object_is_named_and_the_content_kept(union):
    result = await union.call_tool("list-structured", {})

    assert not result.is_error and result.text() == "1, 2, 3"
    assert result.structured is None
    assert result.problems == ["structuredContent is not an object: ignored"]
    assert result.raw["structuredContent"] == [1, 2, 3]  # the Raw view shows what arrived
    assert state(union) == EndpointState.UP


def test_headless_call_shows_the_content_and_names_a_broken_structured_content():
    result = fleet_tui("call", "--stdio", RAW_STDIO, "list-structured")

    assert result.returncode == 0, result.stderr
    assert "1, 2, 3" in result.stdout
    assert "warning: list-structured: structuredContent is not an object: ignored" in (
        result.stderr
    )
    assert "validation error" not in result.stderr + result.stdout


async def test_the_app_shows_the_content_and_names_a_broken_structured_content():
    from fleet_tui.envs.targets import McpTarget
    from fleet_tui.ui.app import FleetTuiApp
    from tests.app_driver import SIZE, call, rendered_text, wait_connected

    app = FleetTuiApp(McpTarget(stdio=[RAW_STDIO]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "list-structured")

        assert entry.status == "ok"
        shown = rendered_text(app)
        assert "1, 2, 3" in shown
        assert "structuredContent is not an object: ignored" in shown


def test_plain_text_on_stdout_is_quoted_as_the_reason_a_server_gives_no_answer():
    banner = "print('Listening on port 3000 [b]', flush=True); import time; time.sleep(30)"
    result = fleet_tui("tools", "--stdio", shlex.join([sys.executable, "-c", banner]))

    assert result.returncode != 0
    said = "the server wrote on stdout what is not JSON-RPC: 'Listening on port 3000 [b]'"
    assert said in result.stderr.strip().splitlines()[-1]


def test_plain_text_answering_no_request_is_told_as_a_stray_line():
    strays: list[str] = []
    replies = Replies(on_stray=strays.append)

    assert replies.message(b"\x1b[31mServer ready\x1b[0m " + b"x" * 500) is None
    assert strays == [
        "the server wrote on stdout what is not JSON-RPC: 'Server ready " + "x" * 186 + "…'"
    ]
