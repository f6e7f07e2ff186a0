"""Replies over stdio that cannot be used fail their call only: a reply over 64 MB (as over
streamable HTTP), a line cut mid-JSON, a line that is not JSON-RPC; the endpoint stays up and
the next call works. A reply cut by the server exiting fails its call in plain words.
Against a real child process that writes its JSON-RPC by hand (tests/fixtures/raw_stdio.py)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from fleet_tui.envs.base import EndpointState
from fleet_tui.envs.mcp_union import McpUnion
from fleet_tui.envs.stdio_lines import LineSplitter, LongLine

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
