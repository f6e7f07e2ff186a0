"""What a server sends on its own reaches the session's `ClientHandlers`, through every env
that speaks MCP (a plain MCP target and a Fleet instance on the local host)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import mcp.types
import pytest
from mcp.server.mcpserver import Context, MCPServer

from fleet_tui.controller import SessionController
from fleet_tui.envs.capabilities import HearsServer
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import LocalTarget, McpTarget, OpenEnvTarget
from tests.fixtures.mcp_servers import ServedMcp, serve_in_thread


def build_chatty_server() -> MCPServer:
    server = MCPServer("chatty", log_level="WARNING")

    @server.tool(description="Logs `text` at level info, then returns it.")
    async def say(text: str, ctx: Context) -> str:
        await ctx.info(text)
        return text

    return server


@pytest.fixture(scope="module")
def chatty() -> Iterator[ServedMcp]:
    served = serve_in_thread("chatty", build_chatty_server())
    yield served
    served.stop()


async def test_a_log_message_reaches_the_session_handlers(chatty: ServedMcp) -> None:
    heard: list[tuple[str, Any]] = []
    controller = SessionController(McpTarget(urls=[chatty.url]))
    controller.client_handlers.on_notification.append(lambda url, n: heard.append((url, n)))
    await controller.connect()
    try:
        await controller.env.call_tool("say", {"text": "hello from the server"})
    finally:
        await controller.close_env()
    logs = [n for _, n in heard if isinstance(n, mcp.types.LoggingMessageNotification)]
    assert [n.params.data for n in logs] == ["hello from the server"]
    assert {url for url, _ in heard} == {chatty.url}


def test_every_env_kind_takes_the_sessions_handlers() -> None:
    """MCP envs for what their servers send; an OpenEnv session for its frames' protocol log."""
    assert isinstance(make_env(McpTarget(urls=["http://127.0.0.1:1/mcp"])), HearsServer)
    assert isinstance(make_env(LocalTarget(env_key="tracker")), HearsServer)
    assert isinstance(make_env(OpenEnvTarget(url="http://127.0.0.1:1")), HearsServer)
