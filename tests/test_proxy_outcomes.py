"""Every agent call is in the session file with its outcome: made (a call and its result),
refused by the person, or abandoned (the agent went away, or fleet-tui closed, while it was
held); and replay makes only the calls that were made. The app serves MCP under Pilot, and
agents are `mcp` SDK ClientSessions over real HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from fleet_tui.controller import CallStatus
from fleet_tui.envs.targets import Target
from fleet_tui.proxy.agent_calls import ABANDONED, REFUSED_BY_PERSON
from fleet_tui.ui.agent_watch import CLOSING
from tests.agent_driver import watched
from tests.app_driver import wait_for
from tests.cli_run import fleet_tui
from tests.fixtures.local_host import mcp_session


async def test_refused_and_abandoned_calls_are_recorded_with_their_outcomes(
    two_servers: Target, tmp_path: Path
):
    path = tmp_path / "agent.jsonl"
    async with watched(two_servers, record=path) as w:
        await w.pilot.press("f11")  # pause: the agent's calls wait
        refused = w.call("echo", {"text": "refuse me"})
        await wait_for(w.pilot, lambda: len(w.held) == 1)
        await w.pilot.press("ctrl+n")
        await w.pilot.press("x")
        assert (await w.finish(refused)).content[0].text == REFUSED_BY_PERSON

        server = w.watch.server

        async def leaving_agent() -> None:
            async with mcp_session(server.url, server.token) as other:
                await other.call_tool("add", {"a": 1, "b": 2})

        leaving = asyncio.ensure_future(leaving_agent())
        left = await w.record_of("add", CallStatus.HELD)
        leaving.cancel()  # the agent goes away while its call is held
        with contextlib.suppress(asyncio.CancelledError):
            await w.finish(leaving)
        await wait_for(w.pilot, lambda: left.status == CallStatus.CANCELLED)

        await w.pilot.press("f11")  # resume: the next call is made
        assert (await w.finish(w.call("alpha/whoami"))).content[0].text == "alpha"
        await w.pilot.press("f11")
        w.call("alpha/shared", {"text": "held at quit"})
        await wait_for(w.pilot, lambda: len(w.held) == 1)
        await w.pilot.press("ctrl+q")

    events = [json.loads(line) for line in path.read_text().splitlines()]
    unmade = [
        (e["tool"], e["caller"], e["outcome"], e["message"])
        for e in events
        if e["event"] == "unmade"
    ]
    assert unmade == [
        ("echo", "agent", "refused", REFUSED_BY_PERSON),
        ("add", "agent", "abandoned", ABANDONED),
        ("alpha/shared", "agent", "abandoned", CLOSING),
    ]
    assert [e["tool"] for e in events if e["event"] == "call"] == ["alpha/whoami"]

    mcp = [word for url in two_servers.urls for word in ("--mcp", url)]
    replayed = fleet_tui("replay", str(path), *mcp)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "1/1 steps match" in replayed.stdout
    assert "3 calls never made, not replayed:" in replayed.stdout
    assert "  not made: echo by agent mcp 0.1.0 #" in replayed.stdout
    assert f"(refused: {REFUSED_BY_PERSON})" in replayed.stdout
