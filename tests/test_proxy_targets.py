"""`fleet-tui proxy` on every kind of target, with its default options and with `--record` and
`--no-record`: a real agent (the `mcp` SDK's ClientSession) lists the tools and makes a call
through it, the session file is written where it should be (or not at all), and what an
episodic env says of the step (reward, done) reaches the agent in the result's `_meta`."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.cli_run import running_ids
from tests.fixtures.local_host import mcp_session
from tests.proxy_run import proxy

RECORDINGS = ["default", "--record", "--no-record"]


def target_and_call(kind: str, mcp_alpha, openenv_server) -> tuple[list[str], str, dict]:
    if kind == "mcp":
        return ["--mcp", mcp_alpha.url], "echo", {"text": "via mcp"}
    if kind == "openenv":
        return ["--openenv", openenv_server.base_url], "echo", {"text": "via openenv"}
    return ["tracker", "--local"], "list_issues", {"limit": 1}


async def agent_session(url: str, token: str, tool: str, arguments: dict) -> tuple[list, Any]:
    async with mcp_session(url, token) as agent:
        names = [listed.name for listed in (await agent.list_tools()).tools]
        return names, await agent.call_tool(tool, arguments)


def recorded_calls(path: Path) -> list[str]:
    events = [json.loads(line) for line in path.read_text().splitlines()]
    return [event["tool"] for event in events if event["event"] == "call"]


@pytest.mark.parametrize("recording", RECORDINGS)
@pytest.mark.parametrize("kind", ["mcp", "openenv", "local"])
def test_the_proxy_serves_every_target_kind_recorded_or_not(
    kind, recording, mcp_alpha, openenv_server, tmp_path: Path
):
    target, tool, arguments = target_and_call(kind, mcp_alpha, openenv_server)
    chosen = tmp_path / "chosen.jsonl"
    options = {"default": [], "--record": ["--record", str(chosen)], "--no-record": ["--no-record"]}
    state = tmp_path / "state"
    with proxy(*target, *options[recording], env={"XDG_STATE_HOME": str(state)}) as served:
        names, result = asyncio.run(agent_session(served.url, served.token, tool, arguments))
        code, lines, stderr = served.stop()
    assert code == 128 + signal.SIGTERM, stderr
    assert tool in names
    assert not result.is_error, result.content
    assert [line["tool"] for line in lines if line["event"] == "call"] == [tool], stderr
    assert "Traceback" not in stderr, stderr
    kept = sorted((state / "fleet-tui" / "sessions").glob("*.jsonl"))
    if recording == "default":
        assert len(kept) == 1 and recorded_calls(kept[0]) == [tool], stderr
        assert f"Recording to {kept[0]}" in stderr
    elif recording == "--record":
        assert kept == [] and recorded_calls(chosen) == [tool]
    else:
        assert kept == [] and not chosen.exists() and "Recording to" not in stderr


def test_the_agent_reads_an_openenv_steps_reward_and_done(openenv_server):
    async def agent(url: str, token: str) -> tuple[Any, Any]:
        async with mcp_session(url, token) as session:
            step = await session.call_tool("echo", {"text": "a step"})
            return step, await session.call_tool("finish", {"answer": "42"})

    with proxy("--openenv", openenv_server.base_url, "--no-record") as served:
        step, finish = asyncio.run(agent(served.url, served.token))
        served.stop()
    assert step.meta["fleet-tui/done"] is False
    assert finish.meta["fleet-tui/reward"] == 1.0 and finish.meta["fleet-tui/done"] is True


def test_a_plain_mcp_result_carries_no_episode_fields(mcp_alpha):
    async def agent(url: str, token: str) -> Any:
        async with mcp_session(url, token) as session:
            return await session.call_tool("echo", {"text": "no episode"})

    with proxy("--mcp", mcp_alpha.url, "--no-record") as served:
        result = asyncio.run(agent(served.url, served.token))
        served.stop()
    assert not (result.meta or {}).keys() & {"fleet-tui/reward", "fleet-tui/done"}


def test_a_kept_instance_is_named_with_how_to_attach_as_the_other_commands_do(local_host):
    """`--keep` on an env key: the proxy opens its session like the headless commands, so it
    leaves the instance running and says how to attach to it when it stops."""
    base = ["--base-url", local_host.base_url]
    with proxy("tracker", *base, "--keep", "--no-record") as served:
        code, _, stderr = served.stop()
    assert code == 128 + signal.SIGTERM, stderr
    instance_id = stderr.split("kept instance ")[1].split(";")[0]
    try:
        assert f"attach with: fleet-tui --instance {instance_id}" in stderr
        assert instance_id in running_ids(local_host)
    finally:
        local_host.registry.stop(local_host.registry.instances[instance_id])
