"""`fleet-tui proxy --expose-reset`: an agent (a real MCP SDK client) gets a `reset` tool that
starts a new episode through the session controller, recorded and in the call lines like any
reset; without the flag there is no such tool."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.local_host import mcp_session
from tests.proxy_run import proxy


async def finish_reset_and_step(url: str, token: str) -> dict[str, Any]:
    """End the episode, reset with a seed and an env keyword, then step again."""
    async with mcp_session(url, token) as agent:
        answers: dict[str, Any] = {"tools": [t.name for t in (await agent.list_tools()).tools]}
        answers["finish"] = await agent.call_tool("finish", {"answer": "42"})
        answers["refused"] = await agent.call_tool("echo", {"text": "after the end"})
        answers["bad seed"] = await agent.call_tool("reset", {"seed": "seven"})
        answers["reset"] = await agent.call_tool("reset", {"seed": 7, "level": "easy"})
        answers["step"] = await agent.call_tool("echo", {"text": "a new episode"})
        return answers


def recorded(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_an_agent_resets_the_episode_through_the_proxy(openenv_server, tmp_path):
    path = tmp_path / "session.jsonl"
    target = ["--openenv", openenv_server.base_url]
    with proxy(*target, "--expose-reset", "--record", str(path)) as served:
        answers = asyncio.run(finish_reset_and_step(served.url, served.token))
        _code, lines, stderr = served.stop()
    assert "reset" in answers["tools"]
    assert answers["finish"].meta["fleet-tui/done"] is True
    assert answers["refused"].is_error
    bad = answers["bad seed"]
    assert bad.is_error and "the seed must be an integer" in bad.content[0].text
    assert not answers["reset"].is_error, answers["reset"].content
    assert answers["reset"].meta["fleet-tui/done"] is False
    assert not answers["step"].is_error and answers["step"].meta["fleet-tui/done"] is False
    calls = [(line["tool"], line["caller"]) for line in lines if line["event"] == "call"]
    assert ("<reset>", "agent") in calls, stderr
    assert calls[-2:] == [("<reset>", "agent"), ("echo", "agent")], stderr
    resets = [event for event in recorded(path) if event["event"] == "reset"]
    assert resets[-1]["seed"] == 7 and resets[-1]["options"] == {"level": "easy"}, resets


def test_without_the_flag_the_agent_gets_no_reset_tool(openenv_server):
    async def agent(url: str, token: str) -> tuple[list[str], Any]:
        async with mcp_session(url, token) as session:
            names = [tool.name for tool in (await session.list_tools()).tools]
            return names, await session.call_tool("reset", {})

    with proxy("--openenv", openenv_server.base_url, "--no-record") as served:
        names, answer = asyncio.run(agent(served.url, served.token))
        served.stop()
    assert "reset" not in names
    assert answer.is_error and "No tool named reset" in answer.content[0].text


def test_the_apps_expose_reset_without_serve_mcp_is_a_plain_error(openenv_server):
    alone = fleet_tui("--openenv", openenv_server.base_url, "--expose-reset")
    assert_one_line_error(alone, 2, "--expose-reset gives an agent a reset tool: add --serve-mcp")
