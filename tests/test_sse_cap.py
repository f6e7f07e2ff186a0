"""Server-sent events over the SSE transport are kept under a size limit, one event at a time:
a reply over it fails its call only, with a plain-words error, and the connection carries on;
an event over it that answers no request closes the connection, saying why."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mcp.server.mcpserver import Context, MCPServer

from fleet_tui.envs.base import EndpointState, EnvError
from fleet_tui.envs.mcp_union import McpUnion
from fleet_tui.envs.sse_cap import SSE_EVENT_LIMIT, EventCutter, EventTooLarge
from tests.cli_run import fleet_tui
from tests.fixtures.mcp_servers import ServedMcp, serve_in_thread

LIMIT_TEXT = "result too large: over 1 MB, the most one event may hold over SSE"


def build_sizes_server() -> MCPServer:
    server = MCPServer("sizes", log_level="WARNING")

    @server.tool(description="A text result of `kib` KiB.")
    def sized(kib: int) -> str:
        return "x" * (kib * 1024)

    @server.tool(description="Logs `kib` KiB, then answers.")
    async def loud(kib: int, ctx: Context) -> str:
        await ctx.info("y" * (kib * 1024))
        return "logged"

    return server


@pytest.fixture(scope="module")
def sizes_sse() -> Iterator[ServedMcp]:
    served = serve_in_thread("sizes", build_sizes_server(), sse=True)
    yield served
    served.stop()


@pytest.fixture
async def union(sizes_sse: ServedMcp) -> McpUnion:
    union = McpUnion([sizes_sse.url], backoff_s=0.01)
    await union.connect()
    yield union
    await union.close()


async def test_a_reply_over_the_limit_fails_that_call_and_the_next_call_works(union):
    assert union.endpoints()[0].transport == "sse"

    too_big = await union.call_tool("sized", {"kib": 1536})
    after = await union.call_tool("sized", {"kib": 300})

    assert too_big.is_error and too_big.error_kind == "unreadable reply"
    assert LIMIT_TEXT in too_big.text()
    assert not after.is_error and len(after.text()) == 300 * 1024
    assert union.endpoints()[0].state == EndpointState.UP


async def test_an_event_over_the_limit_answering_no_request_closes_the_connection_saying_so(
    union,
):
    with pytest.raises(EnvError) as caught:
        await union.call_tool("loud", {"kib": 1536})

    result = caught.value
    message = (
        "a server-sent event was over 1 MB and could not be read, so the SSE connection was closed"
    )
    assert message in result.message
    assert union.endpoints()[0].state == EndpointState.DOWN


def test_the_call_command_says_the_result_is_too_large(sizes_sse):
    result = fleet_tui("call", "--mcp", sizes_sse.url, "sized", "-a", "kib=1536")

    assert result.returncode == 1, result.stderr
    assert LIMIT_TEXT in result.stdout
    assert "Traceback" not in result.stderr


def events(cutter: EventCutter, *chunks: bytes) -> bytes:
    return b"".join(cutter.feed(chunk) for chunk in chunks)


def test_events_pass_whole_whatever_the_line_ends_and_chunks():
    stream = b"event: endpoint\r\ndata: /m?s=1\r\n\r\n: ping\r\rdata: {}\n\n"
    for cut in range(1, len(stream)):
        cutter = EventCutter(SSE_EVENT_LIMIT)

        assert events(cutter, stream[:cut], stream[cut:]) == stream


def test_a_reply_naming_its_id_last_is_answered_with_an_error():
    big = b'data: {"result":{"text":"' + b"z" * 200 + b'"},"jsonrpc":"2.0","id":"call-7"}\n\n'
    cutter = EventCutter(100)

    replaced = events(cutter, big[:150], big[150:], b"data: {}\n\n")

    assert b'"id": "call-7"' in replaced and b"result too large: over 0 KB" in replaced
    assert replaced.endswith(b"\n\ndata: {}\n\n")


def test_a_request_from_the_server_over_the_limit_fails_the_stream():
    big = b'data: {"method":"sampling/createMessage","params":{"x":"' + b"z" * 200 + b'"},'
    big += b'"jsonrpc":"2.0","id":3}\n\n'
    cutter = EventCutter(100)

    with pytest.raises(EventTooLarge, match="the SSE connection was closed"):
        events(cutter, big)
