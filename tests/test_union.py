"""McpUnion against real MCP servers over streamable HTTP."""

from __future__ import annotations

import asyncio

import pytest
from mcp.server.mcpserver import MCPServer

from fleet_tui.envs.base import EndpointState, EnvError
from fleet_tui.envs.mcp_union import McpEnv, McpUnion, Timeouts
from fleet_tui.envs.targets import McpTarget
from tests.fixtures.mcp_servers import BEARER_SEEN, serve_in_thread


@pytest.fixture
async def union(mcp_alpha, mcp_beta):
    union = McpUnion([mcp_alpha.url, mcp_beta.url], headers={"Authorization": "Bearer sekret"})
    await union.connect()
    yield union
    await union.close()


async def test_lists_the_union_of_both_endpoints_with_owners(union, mcp_alpha, mcp_beta):
    owners = {tool.name: tool.endpoint for tool in await union.list_tools()}

    assert owners["echo"] == mcp_alpha.url
    assert owners["picture"] == mcp_beta.url
    assert owners["whoami"] == mcp_alpha.url, "first endpoint wins a shared name"
    assert len(owners) == 10
    assert [status.state for status in union.endpoints()] == [EndpointState.UP] * 2
    assert [status.tool_count for status in union.endpoints()] == [5, 8]


async def test_same_name_with_different_schema_is_a_conflict(union, mcp_alpha, mcp_beta):
    await union.list_tools()

    assert [(c.name, c.kept_endpoint, c.other_endpoint) for c in union.conflicts] == [
        ("clash", mcp_alpha.url, mcp_beta.url)
    ]
    assert any("'clash'" in warning for warning in union.warnings())
    assert "shared" not in {c.name for c in union.conflicts}, "same schema is no conflict"


async def test_calls_are_routed_to_the_owning_endpoint(union, mcp_alpha, mcp_beta):
    shared = await union.call_tool("whoami", {})
    beta_only = await union.call_tool("clash", {"value": 3})
    picture = await union.call_tool("picture", {})

    assert (shared.text(), shared.endpoint) == ("alpha", mcp_alpha.url)
    assert beta_only.text() == "alpha:3", "the kept `clash` is alpha's"
    assert picture.endpoint == mcp_beta.url
    assert picture.images()[0].data.startswith(b"\x89PNG")


async def test_sends_the_headers_it_was_given(union):
    await union.call_tool("whoami", {})

    assert "Bearer sekret" in BEARER_SEEN["alpha"]


async def test_a_tool_failure_is_a_result_not_an_exception(union):
    result = await union.call_tool("fail", {"reason": "no [b]markup[/b]"})

    assert result.is_error
    assert "no [b]markup[/b]" in result.text()


async def test_results_over_one_mebibyte_arrive_whole(union):
    result = await union.call_tool("big", {"kib": 1536})

    assert result.size_bytes > 1536 * 1024
    assert not result.is_error


async def test_unknown_tool_is_a_usage_error(union):
    with pytest.raises(EnvError, match="unknown tool 'nope'") as caught:
        await union.call_tool("nope", {})

    assert caught.value.exit_code == 2


async def test_one_endpoint_down_is_a_warning_naming_it(mcp_alpha, dead_mcp_url):
    union = McpUnion([mcp_alpha.url, dead_mcp_url], backoff_s=0.01)
    try:
        await union.connect()
        tools = await union.list_tools()
    finally:
        await union.close()

    assert {tool.endpoint for tool in tools} == {mcp_alpha.url}
    states = {status.url: status.state for status in union.endpoints()}
    assert states == {mcp_alpha.url: EndpointState.CLOSED, dead_mcp_url: EndpointState.CLOSED}
    assert any(
        dead_mcp_url in warning and "cannot connect" in warning for warning in union.warnings()
    )


async def test_one_endpoint_down_shows_as_down_while_open(mcp_alpha, dead_mcp_url):
    union = McpUnion([mcp_alpha.url, dead_mcp_url], backoff_s=0.01)
    try:
        await union.connect()
        states = [status.state for status in union.endpoints()]
    finally:
        await union.close()

    assert states == [EndpointState.UP, EndpointState.DOWN]


async def test_every_endpoint_down_is_one_clear_error(dead_mcp_url):
    other = dead_mcp_url.replace("/mcp", "/other")
    union = McpUnion([dead_mcp_url, other], backoff_s=0.01)
    with pytest.raises(EnvError) as caught:
        await union.connect()
    await union.close()

    message = caught.value.message
    assert message.startswith("could not connect to any MCP endpoint")
    assert dead_mcp_url in message and other in message
    assert "ExceptionGroup" not in message
    assert caught.value.exit_code == 2


async def test_a_timed_out_call_is_never_sent_twice(mcp_process):
    union = McpUnion([mcp_process.url], timeouts=Timeouts(call=0.5))
    try:
        await union.connect()
        with pytest.raises(EnvError, match="not retried"):
            await union.call_tool("slow_count", {"seconds": 2})
        union.timeouts = Timeouts()
        count = await union.call_tool("count", {})
    finally:
        await union.close()

    assert count.text() == "1"


async def test_server_killed_mid_session(mcp_process):
    union = McpUnion([mcp_process.url], backoff_s=0.01)
    try:
        await union.connect()
        assert (await union.call_tool("whoami", {})).text() == "beta"
        in_flight = asyncio.create_task(union.call_tool("slow_count", {"seconds": 5}))
        await asyncio.sleep(0.3)
        mcp_process.kill()

        with pytest.raises(EnvError, match="is down") as caught:
            await asyncio.wait_for(in_flight, 10)
        state = union.endpoints()[0].state
        with pytest.raises(EnvError, match="is down"):
            await union.call_tool("whoami", {})
        with pytest.raises(EnvError, match="could not connect"):
            await union.reconnect()
    finally:
        await union.close()

    assert state is EndpointState.DOWN
    assert "Traceback" not in caught.value.message


async def test_a_dead_idle_connection_is_noticed_by_the_ping(mcp_process):
    union = McpUnion([mcp_process.url], timeouts=Timeouts(ping=0.1, list=1.0))
    try:
        await union.connect()
        mcp_process.kill()
        for _ in range(100):
            if union.endpoints()[0].state is EndpointState.DOWN:
                break
            await asyncio.sleep(0.05)
        state = union.endpoints()[0].state
    finally:
        await union.close()

    assert state is EndpointState.DOWN


async def test_reconnect_brings_a_restarted_endpoint_back(mcp_alpha):
    union = McpUnion([mcp_alpha.url])
    try:
        await union.connect()
        await union.list_tools()
        union._endpoints[0].mark_down("pretend the server went away")
        with pytest.raises(EnvError, match="pretend"):
            await union.call_tool("whoami", {})
        await union.reconnect()
        result = await union.call_tool("whoami", {})
    finally:
        await union.close()

    assert result.text() == "alpha"
    assert union.endpoints()[0].state is EndpointState.CLOSED


async def test_connect_keeping_open_endpoints_reopens_only_those_down(mcp_alpha, mcp_beta):
    union = McpUnion([mcp_alpha.url, mcp_beta.url])
    lines: list[str] = []
    try:
        await union.connect()
        alpha, beta = union._endpoints
        kept = alpha._session
        beta.mark_down("pretend the server went away")
        await union.connect(lines.append, keep_open=True)
        after = alpha._session
        states = [status.state for status in union.endpoints()]
        result = await union.call_tool("picture", {})
    finally:
        await union.close()

    assert after is kept, "an endpoint that was up keeps its connection"
    assert states == [EndpointState.UP, EndpointState.UP]
    assert not result.is_error
    assert lines[0] == f"Connecting to MCP endpoints {mcp_alpha.url}, {mcp_beta.url}"
    assert lines[-1].startswith("Connected 2/2 MCP endpoints in ")


async def test_mcp_env_has_no_reset(mcp_alpha):
    env = McpEnv(McpTarget(urls=[mcp_alpha.url]))
    try:
        await env.connect()
        names = [tool.name for tool in await env.list_tools()]
        with pytest.raises(EnvError, match="no reset"):
            await env.reset()
    finally:
        await env.close()

    assert "echo" in names
    assert env.info.kind == "mcp"


async def test_works_from_textual_workers(mcp_alpha, mcp_beta):
    """Connect in one worker, call from another, close before the app exits (one loop)."""
    from textual.app import App

    class Probe(App):
        def on_mount(self) -> None:
            self.union = McpUnion([mcp_alpha.url, mcp_beta.url])
            self.run_worker(self.union.connect(), group="connect")

    app = Probe()
    async with app.run_test() as pilot:
        await app.workers.wait_for_complete()
        result = await app.run_worker(app.union.call_tool("picture", {})).wait()
        states = [status.state for status in app.union.endpoints()]
        await app.union.close()
        await pilot.pause()

    assert states == [EndpointState.UP, EndpointState.UP]
    assert result.images() and result.endpoint == mcp_beta.url
    assert [status.state for status in app.union.endpoints()] == [EndpointState.CLOSED] * 2


async def test_an_endpoint_that_answers_404_is_not_retried(mcp_alpha):
    seen = len(BEARER_SEEN["alpha"])
    union = McpUnion([mcp_alpha.url.replace("/mcp", "/nope")], backoff_s=0.01)
    with pytest.raises(EnvError, match="Not Found"):
        await union.connect()
    await union.close()

    # One POST, not retried, and one GET asking whether the URL is an SSE endpoint.
    assert len(BEARER_SEEN["alpha"]) - seen == 2


async def test_a_refused_connection_is_retried(dead_mcp_url):
    union = McpUnion([dead_mcp_url], attempts=3, backoff_s=0.01)
    endpoint = union._endpoints[0]
    opened = 0
    real_open = endpoint.open

    async def counting_open() -> None:
        nonlocal opened
        opened += 1
        await real_open()

    endpoint.open = counting_open
    with pytest.raises(EnvError, match="cannot connect"):
        await union.connect()
    await union.close()

    assert opened == 3


async def test_a_tool_list_the_server_cannot_send_is_retried_then_reported():
    server = MCPServer("unlistable", log_level="CRITICAL")
    server.add_tool(lambda: "x", name="half", description="half of a pair: \ud800")
    served = serve_in_thread("unlistable", server)
    union = McpUnion([served.url], attempts=2, backoff_s=0.01)
    try:
        await union.connect()
        with pytest.raises(EnvError, match="its tool list never arrived"):
            await union.list_tools()
        [status] = union.endpoints()
        assert status.state is EndpointState.DOWN and "SSE stream ended" in status.error
    finally:
        await union.close()
        served.stop()
