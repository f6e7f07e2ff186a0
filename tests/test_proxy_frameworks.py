"""Agent frameworks from PyPI drive `fleet-tui proxy` through their own MCP clients, with
scripted models (no network, no API key): pydantic-ai (`MCPToolset`, a `FunctionModel`) runs
an episode that the session file attributes to it (its clientInfo) and `replay` matches;
openai-agents (`MCPServerStreamableHttp`, a `Model` subclass) makes parallel tool calls,
recorded in the order they arrived, and a call held past its client's 5 s timeout is
abandoned: it never reaches the env and the agent reads an error."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

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


@pytest.fixture(autouse=True, scope="module")
def no_tracing():
    """openai-agents would send traces to OpenAI; these runs stay on this machine."""
    from agents import set_tracing_disabled

    set_tracing_disabled(True)


class ScriptedTurns:
    """An openai-agents `Model` whose turns are given: each turn's tool calls (several in one
    turn are parallel calls), then a final answer. It keeps the tool outputs it read."""

    def __init__(self, turns: list[list[tuple[str, dict[str, Any]]]]) -> None:
        self.turns = turns
        self.outputs: list[str] = []

    def model(self) -> Any:
        from agents.items import ModelResponse
        from agents.models.interface import Model
        from agents.usage import Usage
        from openai.types.responses import (
            ResponseFunctionToolCall,
            ResponseOutputMessage,
            ResponseOutputText,
        )

        script = self

        class Scripted(Model):
            async def get_response(self, system_instructions, input, *args, **kwargs):
                items = input if isinstance(input, list) else []
                script.outputs = [
                    str(item["output"])
                    for item in items
                    if isinstance(item, dict) and item.get("type") == "function_call_output"
                ]
                made = sum(
                    1
                    for item in items
                    if isinstance(item, dict) and item.get("type") == "function_call"
                )
                output: list[Any]
                if made < sum(len(calls) for calls in script.turns):
                    index = next_turn(script.turns, made)
                    output = [
                        ResponseFunctionToolCall(
                            arguments=json.dumps(arguments),
                            call_id=f"call-{index}-{n}",
                            name=tool,
                            type="function_call",
                            id=f"fc-{index}-{n}",
                            status="completed",
                        )
                        for n, (tool, arguments) in enumerate(script.turns[index])
                    ]
                else:
                    text = ResponseOutputText(text="done", type="output_text", annotations=[])
                    output = [
                        ResponseOutputMessage(
                            id="answer",
                            content=[text],
                            role="assistant",
                            status="completed",
                            type="message",
                        )
                    ]
                return ModelResponse(output=output, usage=Usage(), response_id=None)

            def stream_response(self, *args, **kwargs):
                raise NotImplementedError("the scripted model does not stream")

        return Scripted()


def next_turn(turns: list[list[Any]], calls_made: int) -> int:
    """The index of the turn that starts after `calls_made` calls."""
    for index, calls in enumerate(turns):
        if calls_made == 0:
            return index
        calls_made -= len(calls)
    return len(turns)


async def run_openai_agent(served: Proxy, script: ScriptedTurns) -> str:
    """Run an openai-agents Agent on the proxy with its MCP client's default timeout (5 s)."""
    from agents import Agent, Runner
    from agents.mcp import MCPServerStreamableHttp

    server = MCPServerStreamableHttp(
        {"url": served.url, "headers": {"Authorization": f"Bearer {served.token}"}}
    )
    async with server:
        agent = Agent(name="scripted", model=script.model(), mcp_servers=[server])
        result = await Runner.run(agent, "play an episode", max_turns=len(script.turns) + 2)
    return str(result.final_output)


def test_openai_agents_parallel_calls_are_recorded_in_the_order_they_arrived(
    mcp_beta, tmp_path: Path
):
    """openai-agents sends one session's requests one after another (its streamable HTTP
    client serializes them), so the model's two parallel calls arrive in the order it gave
    them: held at the proxy, each is stepped in turn, and the recording keeps that order."""
    record = tmp_path / "parallel.jsonl"
    script = ScriptedTurns([[("slow_count", {"seconds": 0.2}), ("slow_count", {"seconds": 0})]])

    async def episode(served: Proxy) -> list[dict]:
        run = asyncio.ensure_future(run_openai_agent(served, script))
        read: list[dict] = []
        for _ in range(2):
            read += await asyncio.to_thread(served.lines_until, "held")
            served.send("step")
        await run
        return read

    with proxy("--mcp", mcp_beta.url, "--hold", "--record", str(record)) as served:
        lines = asyncio.run(episode(served))
        _code, rest, _stderr = served.stop()

    lines += rest
    held = [line for line in lines if line["event"] == "held"]
    assert [line["arguments"] for line in held] == [{"seconds": 0.2}, {"seconds": 0}]
    made = [line for line in lines if line["event"] == "call"]
    assert [(c["number"], c["outcome"]) for c in made] == [
        (held[0]["number"], "completed"),
        (held[1]["number"], "completed"),
    ], lines
    recorded = [e for e in load_session(record).events if isinstance(e, CallEvent)]
    assert [e.arguments for e in recorded] == [{"seconds": 0.2}, {"seconds": 0}]
    assert [e.agent.name for e in recorded] == ["mcp", "mcp"]  # the mcp SDK's clientInfo
    assert len(script.outputs) == 2 and "error" not in " ".join(script.outputs).lower()


def test_openai_agents_call_held_past_its_timeout_is_abandoned_and_never_made(
    mcp_beta, tmp_path: Path
):
    """A call held by a breakpoint past the client's 5 s timeout: the client gives up
    (`notifications/cancelled`), the proxy abandons the call, the agent reads an error, and
    resuming afterwards runs nothing (no ghost call: the env's count is as it was)."""
    record = tmp_path / "abandoned.jsonl"
    first = ScriptedTurns([[("count", {})], [("slow_count", {"seconds": 0})]])
    second = ScriptedTurns([[("count", {})]])

    async def episode(served: Proxy) -> list[dict]:
        await run_openai_agent(served, first)
        calls = [await asyncio.to_thread(served.next_line, "call") for _ in range(2)]
        served.send("resume")  # the breakpoint paused the gate; nothing is left to release
        await asyncio.to_thread(served.next_line, "control")
        await run_openai_agent(served, second)
        return calls

    with proxy("--mcp", mcp_beta.url, "--break", "slow_count", "--record", str(record)) as served:
        calls = asyncio.run(episode(served))
        _code, _lines, stderr = served.stop()

    assert [(c["tool"], c["status"], c["outcome"]) for c in calls] == [
        ("count", "ok", "completed"),
        ("slow_count", "cancelled", "abandoned"),
    ], stderr
    assert calls[1]["held_ms"] >= 4000  # it was held until the client's timeout
    assert first.outputs[0] == second.outputs[0], "an abandoned call reached the env"
    assert "error" in first.outputs[1].lower(), first.outputs
    made = [e.tool for e in load_session(record).events if isinstance(e, CallEvent)]
    assert made == ["count", "count"]
