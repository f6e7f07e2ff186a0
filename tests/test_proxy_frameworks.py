"""Agent frameworks from PyPI drive `fleet-tui proxy` through their own MCP clients, with
scripted models (no network, no API key): pydantic-ai (`MCPToolset`, a `FunctionModel`) runs
an episode that the session file attributes to it (its clientInfo) and `replay` matches."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fleet_tui.session.events import CallEvent
from fleet_tui.session.reader import load_session
from tests.cli_run import fleet_tui
from tests.proxy_run import Proxy, proxy


def scripted_pydantic_model(calls: list[tuple[str, dict[str, Any]]]) -> Any:
    """A pydantic-ai model that makes `calls` one per turn, then answers what it read."""
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def respond(messages: list[Any], info: AgentInfo) -> ModelResponse:
        returns = [
            part
            for message in messages
            for part in getattr(message, "parts", [])
            if isinstance(part, ToolReturnPart)
        ]
        if len(returns) < len(calls):
            tool, arguments = calls[len(returns)]
            return ModelResponse(parts=[ToolCallPart(tool, arguments, f"call-{len(returns)}")])
        return ModelResponse(parts=[TextPart(" | ".join(str(r.content) for r in returns))])

    return FunctionModel(respond)


def test_a_pydantic_ai_agent_runs_an_episode_recorded_as_its_own_and_replayed(
    mcp_alpha, tmp_path: Path
):
    from mcp.types import Implementation
    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset

    record = tmp_path / "pydantic-ai.jsonl"
    calls = [("echo", {"text": "from pydantic-ai"}), ("add", {"a": 40, "b": 2})]

    async def episode(served: Proxy) -> str:
        toolset = MCPToolset(
            served.url,
            headers={"Authorization": f"Bearer {served.token}"},
            client_info=Implementation(name="scripted-pydantic-ai", version="2.68"),
        )
        agent = Agent(scripted_pydantic_model(calls), toolsets=[toolset])
        async with agent:
            return (await agent.run("play an episode")).output

    with proxy("--mcp", mcp_alpha.url, "--record", str(record)) as served:
        answer = asyncio.run(episode(served))
        _code, lines, stderr = served.stop()

    assert "from pydantic-ai" in answer and "42" in answer, answer
    made = [line for line in lines if line["event"] == "call"]
    assert [(c["tool"], c["outcome"], c["agent"]["name"]) for c in made] == [
        ("echo", "completed", "scripted-pydantic-ai"),
        ("add", "completed", "scripted-pydantic-ai"),
    ], stderr
    recorded = [e for e in load_session(record).events if isinstance(e, CallEvent)]
    assert [(e.tool, e.caller, e.agent.name, e.agent.version) for e in recorded] == [
        ("echo", "agent", "scripted-pydantic-ai", "2.68"),
        ("add", "agent", "scripted-pydantic-ai", "2.68"),
    ]
    assert recorded[0].agent.id == made[0]["agent"]["id"] == made[1]["agent"]["id"]
    replayed = fleet_tui("replay", str(record), "--mcp", mcp_alpha.url)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "2/2 steps match" in replayed.stdout
    assert "echo by agent scripted-pydantic-ai 2.68" in replayed.stdout
