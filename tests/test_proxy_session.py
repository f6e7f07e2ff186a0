"""The proxy in process, on a session controller of its own (no app, no child process): an
agent that lists the tools while the session is still connecting gets them once it has
connected."""

from __future__ import annotations

import asyncio

from fleet_tui.controller import SessionController
from fleet_tui.envs.targets import McpTarget
from fleet_tui.proxy.agent_calls import AgentCalls
from fleet_tui.proxy.server import ProxyServer
from tests.fixtures.local_host import mcp_session


async def test_an_agent_early_for_a_connecting_session_gets_its_tools(mcp_alpha):
    session = SessionController(McpTarget(urls=[mcp_alpha.url]))
    server = ProxyServer(AgentCalls(session), asyncio.get_running_loop())
    await asyncio.to_thread(server.start)
    try:
        async with mcp_session(server.url, server.token) as agent:
            listing = asyncio.ensure_future(agent.list_tools())
            await asyncio.sleep(0.5)
            assert not listing.done()  # still connecting: the agent waits
            await session.connect()
            names = [tool.name for tool in (await asyncio.wait_for(listing, 30)).tools]
            assert "echo" in names and "add" in names
    finally:
        await asyncio.to_thread(server.stop)
        await session.close()
