"""`fleet-tui proxy`: the target's tool union served as one MCP endpoint, over real HTTP, to a
scripted agent (an `mcp` SDK ClientSession): same tools, same results from the owning
endpoint, one JSON line per call (a call to an unknown tool too), the calls recorded; and the
gate in front of it refuses requests without the token, from another web page or to another
host name."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.local_host import MCP_INITIALIZE, mcp_session
from tests.fixtures.mcp_servers import ServedMcp, serve_in_thread
from tests.proxy_run import Proxy, proxy


@pytest.fixture(scope="module")
def mcp_annotated() -> Iterator[ServedMcp]:
    """A server whose tool carries annotations and an output schema."""
    server = MCPServer("annotated", log_level="WARNING")

    @server.tool(
        description="Reads the clock.",
        annotations=ToolAnnotations(read_only_hint=True, destructive_hint=False, title="Clock"),
    )
    def clock() -> int:
        return 12

    served = serve_in_thread("annotated", server)
    yield served
    served.stop()


async def test_the_agent_sees_the_union_and_gets_each_endpoints_results(
    mcp_alpha, mcp_beta, mcp_annotated, tmp_path: Path
):
    record = tmp_path / "agent.jsonl"
    with proxy(
        "--mcp", mcp_alpha.url, "--mcp", mcp_beta.url, "--mcp", mcp_annotated.url,
        "--record", str(record),
    ) as served:  # fmt: skip
        assert served.url.startswith("http://127.0.0.1:") and served.url.endswith("/mcp")
        server = served.config["mcpServers"]["fleet-tui"]
        assert server["url"] == served.url
        assert server["headers"] == {"Authorization": f"Bearer {served.token}"}
        async with mcp_session(served.url, served.token) as agent:
            tools = {tool.name: tool for tool in (await agent.list_tools()).tools}
            for name in ("alpha/whoami", "beta/whoami", "echo", "add", "picture", "clock"):
                assert name in tools
            assert "whoami" not in tools, "a name both offer is qualified on each"
            assert tools["add"].input_schema["required"] == ["a"]
            assert tools["clock"].annotations.read_only_hint is True
            assert tools["clock"].annotations.title == "Clock"
            assert tools["clock"].output_schema is not None
            assert (await agent.call_tool("echo", {"text": "hi"})).content[0].text == "hi"
            assert (await agent.call_tool("beta/whoami", {})).content[0].text == "beta"
            assert (await agent.call_tool("add", {"a": 2, "b": 3})).structured_content == {
                "result": 5
            }
            picture = await agent.call_tool("picture", {})
            assert [block.type for block in picture.content] == ["text", "image"]
            failed = await agent.call_tool("fail", {"reason": "nope"})
            assert failed.is_error and "nope" in failed.content[0].text
            unknown = await agent.call_tool("no_such_tool", {})
            assert unknown.is_error and "No tool named" in unknown.content[0].text
        code, lines, stderr = served.stop()
    assert code == 128 + signal.SIGTERM, stderr
    assert "Token: " in stderr and served.token in stderr
    calls = [line for line in lines if line["event"] == "call"]
    assert [(c["tool"], c["status"], c["caller"], c["outcome"]) for c in calls] == [
        ("echo", "ok", "agent", "completed"),
        ("beta/whoami", "ok", "agent", "completed"),
        ("add", "ok", "agent", "completed"),
        ("picture", "ok", "agent", "completed"),
        ("fail", "error", "agent", "completed"),
        ("no_such_tool", "error", "agent", "unknown_tool"),
    ]
    assert calls[3]["images"] == 1 and calls[0]["text"] == "hi"
    recorded = [json.loads(line) for line in record.read_text().splitlines()]
    assert [e["tool"] for e in recorded if e["event"] == "call"] == [
        "echo",
        "beta/whoami",
        "add",
        "picture",
        "fail",
    ]


def test_the_recorded_agent_session_replays_cleanly(mcp_alpha, tmp_path: Path):
    import asyncio

    record = tmp_path / "agent.jsonl"

    async def agent(served: Proxy) -> None:
        async with mcp_session(served.url, served.token) as session:
            await session.call_tool("echo", {"text": "again"})
            await session.call_tool("add", {"a": 40, "b": 2})

    with proxy("--mcp", mcp_alpha.url, "--record", str(record)) as served:
        asyncio.run(agent(served))
        served.stop()
    replayed = fleet_tui("replay", str(record), "--mcp", mcp_alpha.url)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "2/2 steps match" in replayed.stdout


REFUSED = {
    "no token": ({"Authorization": None}, 401, "needs its token"),
    "wrong token": ({"Authorization": "Bearer not-the-token"}, 401, "not this host's token"),
    "foreign origin": ({"Origin": "http://attacker.example"}, 403, "Origin header"),
    "foreign host": ({"Host": "attacker.example"}, 400, "Host header"),
}


def test_the_gate_refuses_strangers(mcp_alpha):
    initialize = MCP_INITIALIZE
    with proxy("--mcp", mcp_alpha.url, "--no-record") as served:
        base = {
            "Authorization": f"Bearer {served.token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        welcome = httpx.post(served.url, json=initialize, headers=base, timeout=30)
        assert welcome.status_code == 200, welcome.text
        for changes, status, reason in REFUSED.values():
            headers = dict(base)
            for name, value in changes.items():
                headers.pop(name, None)
                if value is not None:
                    headers[name] = value
            response = httpx.post(served.url, json=initialize, headers=headers, timeout=30)
            assert response.status_code == status, (changes, response.text)
            assert reason in response.json()["detail"]
        served.stop()


def test_a_bad_breakpoint_is_a_plain_error_before_anything_starts(mcp_alpha):
    bad = fleet_tui("--mcp", mcp_alpha.url, "--serve-mcp", "--break", "echo text")
    assert_one_line_error(bad, 2, "--break: expected TOOL KEY=VALUE")
    alone = fleet_tui("--mcp", mcp_alpha.url, "--break", "echo")
    assert_one_line_error(alone, 2, "add --serve-mcp")
    served = fleet_tui("proxy", "--mcp", mcp_alpha.url, "--break", "echo text")
    assert_one_line_error(served, 2, "--break: expected TOOL KEY=VALUE")


def test_a_call_the_agent_walks_away_from_still_finishes_and_is_recorded(mcp_beta, tmp_path: Path):
    import asyncio

    record = tmp_path / "left.jsonl"

    async def agent_leaves(served: Proxy) -> None:
        async with mcp_session(served.url, served.token) as session:
            call = asyncio.ensure_future(session.call_tool("slow_count", {"seconds": 1}))
            await asyncio.sleep(0.4)
            call.cancel()  # the agent gives up and disconnects mid-call
        await asyncio.sleep(1.5)

    with proxy("--mcp", mcp_beta.url, "--record", str(record)) as served:
        asyncio.run(agent_leaves(served))
        _code, lines, _stderr = served.stop()
    calls = [line for line in lines if line["event"] == "call"]
    assert [(c["tool"], c["status"], c["outcome"]) for c in calls] == [
        ("slow_count", "ok", "completed")
    ]
    events = [json.loads(line) for line in record.read_text().splitlines()]
    assert [e["event"] for e in events if e["event"] in ("call", "result")] == ["call", "result"]


@pytest.mark.parametrize("kind", ["openenv", "local"])
def test_any_target_kind_is_served(kind, openenv_server, local_host):
    import asyncio

    if kind == "openenv":
        target, call = ["--openenv", openenv_server.base_url], ("echo", {"text": "via openenv"})
    else:
        target = ["tracker", "--base-url", local_host.base_url]
        call = ("list_issues", {"limit": 1})

    async def agent(served: Proxy):
        async with mcp_session(served.url, served.token) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            return names, await session.call_tool(*call)

    with proxy(*target, "--no-record") as served:
        names, result = asyncio.run(agent(served))
        served.stop()
    assert call[0] in names
    assert not result.is_error, result.content
    if kind == "openenv":
        assert result.content[0].text == "via openenv"
