"""Who did what, through the proxy, with real `mcp` SDK clients: each call says whose it is (the
person, or the agent: its MCP session and the name and version its client gave), two agents
on one proxy are told apart, a held call the person edited keeps what the agent asked beside
what was sent, its hold time apart from the env's latency, and calls refused before reaching
the env (an unknown tool, arguments that break the tool's schema) are recorded — in the JSON
lines of `fleet-tui proxy`, the session file, `replay` and the History pane."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

from textual.widgets import TextArea

from fleet_tui.controller import Caller, CallStatus
from fleet_tui.envs.targets import Target
from fleet_tui.session.events import CallEvent, UnmadeEvent
from fleet_tui.session.reader import load_session
from fleet_tui.ui.widgets.history import HistoryTable
from tests.agent_driver import watched
from tests.app_driver import call, wait_for
from tests.cli_run import fleet_tui
from tests.proxy_run import Proxy, proxy

HOSTILE_NAME = "evil\x1b[31m\u202e" + "x" * 300


@contextlib.asynccontextmanager
async def agent(url: str, token: str, name: str, version: str) -> AsyncIterator:
    """An MCP client session on the proxy at `url` whose client says it is `name` `version`."""
    from mcp import ClientSession, types
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    info = types.Implementation(name=name, version=version)
    async with (
        create_mcp_http_client({"Authorization": f"Bearer {token}"}) as http_client,
        streamable_http_client(url, http_client=http_client) as (read, write),
        ClientSession(read, write, client_info=info) as session,
    ):
        await session.initialize()
        yield session


def test_two_agents_on_one_proxy_are_told_apart_and_refusals_are_recorded(
    mcp_alpha, tmp_path: Path
):
    record = tmp_path / "two.jsonl"

    async def two_agents(served: Proxy) -> None:
        async with (
            agent(served.url, served.token, "planner", "1.2") as planner,
            agent(served.url, served.token, "worker", "0.3") as worker,
        ):
            await planner.call_tool("echo", {"text": "from the planner"})
            await worker.call_tool("echo", {"text": "from the worker"})
            unknown = await worker.call_tool("nope", {})
            assert unknown.is_error and "No tool named nope" in unknown.content[0].text
            broken = await planner.call_tool("add", {"a": "forty", "b": 2})
            assert broken.is_error and "$.a: 'forty' is not of type 'integer'" in (
                broken.content[0].text
            )

    with proxy("--mcp", mcp_alpha.url, "--record", str(record)) as served:
        asyncio.run(two_agents(served))
        _code, lines, _stderr = served.stop()

    calls = [line for line in lines if line["event"] == "call"]
    assert [(c["tool"], c["caller"], c["agent"]["name"], c["outcome"]) for c in calls] == [
        ("echo", "agent", "planner", "completed"),
        ("echo", "agent", "worker", "completed"),
        ("nope", "agent", "worker", "unknown_tool"),
        ("add", "agent", "planner", "invalid_arguments"),
    ]
    planner_id, worker_id = calls[0]["agent"]["id"], calls[1]["agent"]["id"]
    assert planner_id and worker_id and planner_id != worker_id
    assert [c["agent"]["id"] for c in calls[2:]] == [worker_id, planner_id]
    assert calls[0]["agent"]["version"] == "1.2" and calls[0]["held_ms"] is None

    session = load_session(record)
    made = [e for e in session.events if isinstance(e, CallEvent)]
    assert [(e.caller, e.agent.name, e.agent.id) for e in made] == [
        ("agent", "planner", planner_id),
        ("agent", "worker", worker_id),
    ]
    refused = [e for e in session.events if isinstance(e, UnmadeEvent)]
    assert [(e.tool, e.outcome, e.agent.name) for e in refused] == [
        ("nope", "unknown_tool", "worker"),
        ("add", "invalid_arguments", "planner"),
    ]
    assert refused[1].arguments == {"a": "forty", "b": 2}

    replayed = fleet_tui("replay", str(record), "--mcp", mcp_alpha.url)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "2/2 steps match" in replayed.stdout
    assert f"echo by agent planner 1.2 #{planner_id[:8]}: match" in replayed.stdout
    assert f"echo by agent worker 0.3 #{worker_id[:8]}: match" in replayed.stdout
    assert f"not made: nope by agent worker 0.3 #{worker_id[:8]} (unknown_tool:" in (
        replayed.stdout
    )
    as_json = json.loads(fleet_tui("replay", str(record), "--mcp", mcp_alpha.url, "--json").stdout)
    assert [s["agent"]["name"] for s in as_json["steps"]] == ["planner", "worker"]
    assert [u["outcome"] for u in as_json["unmade_calls"]] == ["unknown_tool", "invalid_arguments"]


async def test_an_edited_held_call_keeps_what_the_agent_asked_and_its_hold_time(
    two_servers: Target, tmp_path: Path
):
    record = tmp_path / "edited.jsonl"
    async with watched(two_servers, "echo", record=record) as w:
        asked = w.call("echo", {"text": "from the agent"})
        held = await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("ctrl+n")  # the Agent pane, its held calls focused
        await w.pilot.press("e")
        await wait_for(w.pilot, lambda: w.watch.editing == held.number)
        box = await wait_for(w.pilot, lambda: isinstance(w.app.focused, TextArea) and w.app.focused)
        box.text = "edited by the person"
        await asyncio.sleep(0.5)  # the call stays held meanwhile
        await w.pilot.pause()
        await w.pilot.press("f12")  # releases the call being edited, as edited
        await w.finish(asked)
        assert held.asked_arguments == {"text": "from the agent"}
        assert held.arguments == {"text": "edited by the person"}
        assert held.held_s is not None and held.held_s >= 0.5
        assert held.latency_s is not None and held.latency_s < held.held_s
        w.app.show_sidebar_pane("pane-history")
        await w.pilot.pause()
        history = w.app.query_one(HistoryTable)
        row = history.get_row(str(held.number))[1].plain
        assert "agent" in row and "edited · held " in row and " s · mcp" in row
        await w.pilot.press("escape")
        mine = await call(w.pilot, "add", {"a": 1, "b": 2})
        assert mine.caller == Caller.YOU and mine.agent is None
    session = load_session(record)
    echo, add = [e for e in session.events if isinstance(e, CallEvent)]
    assert echo.arguments == {"text": "edited by the person"}
    assert echo.asked_arguments == {"text": "from the agent"}
    assert echo.caller == "agent" and echo.agent.name == "mcp" and echo.agent.id
    assert echo.held_s >= 0.5
    assert (add.caller, add.agent, add.asked_arguments, add.held_s) == ("you", None, None, None)


async def test_what_a_client_says_of_itself_is_kept_as_bounded_data(mcp_alpha):
    from fleet_tui.controller import SessionController
    from fleet_tui.envs.targets import McpTarget
    from fleet_tui.proxy.agent_calls import AgentCalls
    from fleet_tui.proxy.server import ProxyServer

    session = SessionController(McpTarget(urls=[mcp_alpha.url]))
    await session.connect()
    server = ProxyServer(AgentCalls(session), asyncio.get_running_loop())
    await asyncio.to_thread(server.start)
    try:
        async with agent(server.url, server.token, HOSTILE_NAME, "1\n2") as hostile:
            await hostile.call_tool("echo", {"text": "hi"})
    finally:
        await asyncio.to_thread(server.stop)
        await session.close()
    (record,) = session.records
    assert record.agent is not None and "\x1b" not in record.agent.name
    assert len(record.agent.name) <= 100 and record.agent.version == "1"
    assert "\u202e" not in str(record.agent) and "\\u202e" in str(record.agent)
