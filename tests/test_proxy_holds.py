"""Held calls follow the agent: a held call the agent cancelled, timed out on or left (its
connection closed, its process killed) is abandoned and never made, even when the person
releases later; while held, an agent that asked for progress hears "held by a person"; the
hold limit answers a call held too long with an error the agent reads. The proxy runs in
process on a session controller of its own; agents are `mcp` SDK ClientSessions over HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from fleet_tui.controller import CallRecord, CallStatus, SessionController
from fleet_tui.envs.targets import McpTarget
from fleet_tui.proxy.agent_calls import ABANDONED, AgentCalls
from fleet_tui.proxy.gate import Gate, over_limit
from fleet_tui.proxy.server import ProxyServer
from fleet_tui.session_records import Unmade
from tests.cli_run import child_env
from tests.fixtures.local_host import mcp_session

WAIT_S = 30.0
"""Generous: how long a test waits for something that happens within a second or two."""


async def until(condition: Callable[[], Any]) -> Any:
    """Wait (bounded) until `condition()` is truthy, and give its value."""
    async with asyncio.timeout(WAIT_S):
        while not (value := condition()):
            await asyncio.sleep(0.05)
    return value


@dataclass
class Proxied:
    session: SessionController
    url: str
    token: str

    def agent(self, **options: Any) -> contextlib.AbstractAsyncContextManager[Any]:
        """An agent connected to the proxy (`options` go to its ClientSession)."""
        return mcp_session(self.url, self.token, **options)


@contextlib.asynccontextmanager
async def proxied(urls: list[str], gate: Gate) -> AsyncIterator[Proxied]:
    """A connected session on `urls` served by the proxy behind `gate`."""
    session = SessionController(McpTarget(urls=urls))
    await session.connect()
    server = ProxyServer(AgentCalls(session, gate), asyncio.get_running_loop())
    await asyncio.to_thread(server.start)
    try:
        yield Proxied(session, server.url, server.token)
    finally:
        gate.close("closing")
        await asyncio.to_thread(server.stop)
        await session.close()


def agent_records(session: SessionController, tool: str) -> list[CallRecord]:
    return [r for r in session.records if r.tool == tool and r.caller == "agent"]


def assert_abandoned(record: CallRecord) -> None:
    assert record.status == CallStatus.CANCELLED
    assert record.unmade == Unmade.ABANDONED and record.message == ABANDONED


async def test_a_call_the_agent_cancels_or_times_out_on_is_abandoned_and_never_made(mcp_beta):
    gate = Gate(paused=True)
    async with proxied([mcp_beta.url], gate) as proxy:
        session = proxy.session
        async with proxy.agent() as agent:
            gate.resume()
            count_before = (await agent.call_tool("count", {})).structured_content["result"]
            gate.pause()
            # the SDK sends notifications/cancelled when its read timeout passes
            with pytest.raises(MCPError, match="timed out"):
                await agent.call_tool("slow_count", {"seconds": 0}, read_timeout_seconds=1)
            timed_out = agent_records(session, "slow_count")[-1]
            await until(lambda: timed_out.status != CallStatus.HELD)
            assert_abandoned(timed_out)
            # and when its caller is cancelled, keeping the session open
            cancelled = asyncio.ensure_future(agent.call_tool("slow_count", {"seconds": 0}))
            await until(lambda: len(gate.held) == 1)
            cancelled.cancel()
            await until(lambda: not gate.held)
            assert_abandoned(agent_records(session, "slow_count")[-1])
            gate.resume()  # nothing is left to release: no ghost call runs
            after = (await agent.call_tool("count", {})).structured_content["result"]
        assert after == count_before, "an abandoned call reached the env"
        assert [r.status for r in agent_records(session, "slow_count")] == [
            CallStatus.CANCELLED,
            CallStatus.CANCELLED,
        ]


KILLED_AGENT = textwrap.dedent(
    """
    import asyncio, sys
    from tests.fixtures.local_host import mcp_session

    async def main():
        async with mcp_session(sys.argv[1], sys.argv[2]) as agent:
            await agent.call_tool("echo", {"text": "from a killed agent"})

    asyncio.run(main())
    """
)


async def test_a_killed_agents_held_call_is_abandoned(mcp_alpha):
    gate = Gate(paused=True)
    async with proxied([mcp_alpha.url], gate) as proxy:
        agent = subprocess.Popen(
            [sys.executable, "-c", KILLED_AGENT, proxy.url, proxy.token], env=child_env(None)
        )
        try:
            await until(lambda: gate.held)
        finally:
            agent.kill()
            agent.wait()
        await until(lambda: not gate.held)
        assert_abandoned(agent_records(proxy.session, "echo")[-1])


async def test_a_held_agent_hears_progress_while_it_waits(mcp_alpha):
    gate = Gate(paused=True)
    heard: list[str | None] = []

    async def progress(_progress: float, _total: float | None, message: str | None) -> None:
        heard.append(message)

    async with proxied([mcp_alpha.url], gate) as proxy, proxy.agent() as agent:
        call = asyncio.ensure_future(
            agent.call_tool("echo", {"text": "hi"}, progress_callback=progress)
        )
        await until(lambda: heard)
        gate.resume()
        assert (await asyncio.wait_for(call, WAIT_S)).content[0].text == "hi"
    assert heard[0] is not None and heard[0].startswith("held by a person for ")


async def test_the_hold_limit_answers_a_call_held_too_long(mcp_alpha):
    gate = Gate(paused=True, hold_limit_s=1)
    async with proxied([mcp_alpha.url], gate) as proxy, proxy.agent() as agent:
        answer = await asyncio.wait_for(agent.call_tool("echo", {"text": "x"}), WAIT_S)
    assert answer.is_error and answer.content[0].text == over_limit(1)
    assert "held by a person for more than 1 s" in over_limit(1)
    record = agent_records(proxy.session, "echo")[-1]
    assert record.status == CallStatus.ERROR and record.unmade == Unmade.REFUSED
    assert record.message == over_limit(1) and not gate.held


async def hold_in_turn(agent: Any, gate: Gate, calls: list[float]) -> list[asyncio.Future]:
    """The agent calls `slow_count` once per entry (its seconds), each held before the next."""
    held = []
    for seconds in calls:
        held.append(asyncio.ensure_future(agent.call_tool("slow_count", {"seconds": seconds})))
        await until(lambda: len(gate.held) == len(held))
    return held


async def test_resume_makes_held_calls_in_order_one_after_another(mcp_beta):
    gate = Gate(paused=True)
    async with proxied([mcp_beta.url], gate) as proxy, proxy.agent() as agent:
        held = await hold_in_turn(agent, gate, [1.0, 0.5, 0])
        gate.resume()
        counts = [(await call).structured_content["result"] for call in held]
    # each call counts as it starts: one after another, the first counts first and finishes
    # before the second starts
    assert counts == [counts[0], counts[0] + 1, counts[0] + 2]


async def test_a_parallel_release_makes_held_calls_at_once(mcp_beta):
    gate = Gate(paused=True)
    async with proxied([mcp_beta.url], gate) as proxy, proxy.agent() as agent:
        held = await hold_in_turn(agent, gate, [3.0, 3.0])
        gate.resume(in_parallel=True)
        counts = [(await call).structured_content["result"] for call in held]
    # both started before either finished: each reads the count after both started
    assert counts[0] == counts[1]
