"""Watching an agent in the app (`--serve-mcp`): a scripted agent (an mcp ClientSession over
real HTTP, with the bearer token) drives the proxy while the app runs under Pilot. Its calls
appear in the history as they start and end, marked as the agent's; pause holds a call until
step; a breakpoint stops before a named tool; a held call edited in the form reaches the env
with the edited arguments, or is answered with an error; take-over lets the person's calls go
first; the recorded session replays cleanly."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from textual.widgets import Button, Input, TextArea

from fleet_tui.controller import Caller, CallStatus
from fleet_tui.envs.targets import Target
from fleet_tui.local.envs import todo_gui
from fleet_tui.proxy.agent_calls import REFUSED_BY_PERSON
from tests.agent_driver import watched
from tests.app_driver import call, local_target, screen_text, wait_for
from tests.cli_run import fleet_tui


async def test_agent_calls_appear_live_marked_as_the_agents(two_servers: Target):
    async with watched(two_servers) as w:
        slow = w.call("slow_count", {"seconds": 1})
        running = await w.record_of("slow_count", CallStatus.RUNNING)
        assert running.caller == Caller.AGENT
        assert w.app.history.entries[str(running.number)] is running
        result = await w.finish(slow)
        assert not result.is_error
        assert running.status == CallStatus.OK
        mine = await call(w.pilot, "echo", {"text": "mine"})
        assert mine.caller == Caller.YOU
        await w.pilot.press("f3")
        await w.pilot.pause()
        text = screen_text(w.app)
        assert "agent  ok" in text and "echo  you  ok" in text
        await w.finish(w.call("echo", {"text": "shown to the person"}))
        await w.pilot.pause(0.3)
        assert "shown to the person" in screen_text(w.app)
        assert "⇄ agent 127.0.0.1:" in screen_text(w.app)
        await w.pilot.press("ctrl+n", "c")  # the Agent pane copies a ready client config
        server = json.loads(w.app.clipboard)["mcpServers"]["fleet-tui"]
        assert server["url"] == w.watch.server.url
        assert server["headers"]["Authorization"] == f"Bearer {w.watch.server.token}"


async def test_pause_holds_a_call_until_step(two_servers: Target):
    async with watched(two_servers) as w:
        await w.pilot.press("f11")
        first = w.call("echo", {"text": "one"})
        second = w.call("echo", {"text": "two"})
        await wait_for(w.pilot, lambda: len(w.held) == 2)
        await asyncio.sleep(0.3)
        assert not first.done() and not second.done()
        assert [w.app.controller.records[n - 1].status for n in w.held] == ["held", "held"]
        assert "PAUSED" in screen_text(w.app) or "paused" in screen_text(w.app)
        await w.pilot.press("f12")
        await wait_for(w.pilot, lambda: first.done() or second.done())
        await asyncio.sleep(0.3)
        assert len(w.held) == 1 and not (first.done() and second.done())
        assert w.watch.calls.gate.paused
        await w.pilot.press("f11")  # resume: the rest goes
        results = [await w.finish(first), await w.finish(second)]
        assert [r.content[0].text for r in results] == ["one", "two"]


async def test_a_breakpoint_stops_before_a_named_tool(two_servers: Target):
    async with watched(two_servers, "add") as w:
        echoed = await w.finish(w.call("echo", {"text": "goes through"}))
        assert echoed.content[0].text == "goes through"
        added = w.call("add", {"a": 1, "b": 2})
        held = await w.record_of("add", CallStatus.HELD)
        assert w.watch.calls.gate.held[0].reason == "breakpoint add"
        await asyncio.sleep(0.3)
        assert not added.done()
        await w.pilot.press("f11")
        assert (await w.finish(added)).structured_content == {"result": 3}
        assert held.status == CallStatus.OK
        await w.pilot.press("ctrl+n")  # a breakpoint typed in the Agent pane
        w.app.query_one("#agent-break", Input).focus()
        await w.pilot.press(*"echo text=stop", "enter")
        assert [str(b) for b in w.watch.calls.gate.breakpoints] == ["add", "echo text=stop"]
        assert (await w.finish(w.call("echo", {"text": "go"}))).content[0].text == "go"
        stopped = w.call("echo", {"text": "stop"})
        await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("f12")
        assert (await w.finish(stopped)).content[0].text == "stop"


async def test_quitting_answers_held_calls_with_an_error(two_servers: Target):
    async with watched(two_servers) as w:
        await w.pilot.press("f11")
        waiting = w.call("echo", {"text": "never sent"})
        held = await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("ctrl+q")
        answer = await asyncio.wait_for(waiting, 30)
        assert answer.is_error and "closing" in answer.content[0].text
        assert held.status == CallStatus.ERROR


async def test_a_held_call_edited_in_the_form_reaches_the_env_edited(two_servers: Target):
    async with watched(two_servers, "echo") as w:
        asked = w.call("echo", {"text": "from the agent"})
        held = await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("ctrl+n")  # the Agent pane, its held calls focused
        await w.pilot.press("e")
        await wait_for(w.pilot, lambda: w.watch.editing == held.number)
        await wait_for(w.pilot, lambda: w.app.tool_panel.arguments() == {"text": "from the agent"})
        # `text` is edited in a multi-line box; set as typing would change it
        box = await wait_for(w.pilot, lambda: isinstance(w.app.focused, TextArea) and w.app.focused)
        box.text = "edited by the person"
        await w.pilot.pause()
        await w.pilot.press("f12")  # steps: releases the call being edited, as edited
        result = await w.finish(asked)
        assert result.content[0].text == "edited by the person"
        assert held.arguments == {"text": "edited by the person"}
        refused = w.call("echo", {"text": "never sent"})
        await wait_for(w.pilot, lambda: len(w.held) == 1)
        await w.pilot.press("ctrl+n")
        await w.pilot.press("x")
        answer = await w.finish(refused)
        assert answer.is_error and answer.content[0].text == REFUSED_BY_PERSON


@pytest.mark.parametrize("how", ["ctrl+s", "button"])
async def test_call_on_a_held_call_in_the_form_releases_it_and_makes_no_second_call(
    two_servers: Target, how: str
):
    async with watched(two_servers, "echo") as w:
        asked = w.call("echo", {"text": "from the agent"})
        held = await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("ctrl+n", "e")
        box = await wait_for(w.pilot, lambda: isinstance(w.app.focused, TextArea) and w.app.focused)
        box.text = "edited by the person"
        await w.pilot.pause()
        button = w.app.query_one("#call-button", Button)
        assert str(button.label) == "Release held call"
        assert "Release held call" in screen_text(w.app)  # the footer says what ctrl+s does
        if how == "ctrl+s":
            await w.pilot.press("ctrl+s")
        else:
            await w.pilot.click("#call-button")
        result = await w.finish(asked)
        assert result.content[0].text == "edited by the person"
        await w.pilot.pause(0.5)
        assert [r.number for r in w.app.controller.records if r.tool == "echo"] == [held.number]
        assert held.arguments == {"text": "edited by the person"}
        assert str(button.label) == "Call"
        await w.pilot.press("ctrl+s")  # the form calls again, as the person's own call
        mine = await wait_for(
            w.pilot, lambda: [r for r in w.app.controller.records if r.caller == Caller.YOU]
        )
        assert mine[0].tool == "echo" and mine[0].number != held.number


async def test_take_over_lets_the_persons_calls_go_first_and_the_session_replays(
    two_servers: Target, mcp_alpha, mcp_beta, tmp_path: Path
):
    record = tmp_path / "watched.jsonl"
    async with watched(two_servers, record=record) as w:
        await w.pilot.press("ctrl+n", "t")  # the Agent pane: take over
        agents = w.call("echo", {"text": "agent"})
        await wait_for(w.pilot, lambda: len(w.held) == 1)
        mine = await call(w.pilot, "alpha/shared", {"text": "person"})
        assert mine.status == CallStatus.OK and not agents.done()
        await w.pilot.press("ctrl+n", "t")  # give back
        assert (await w.finish(agents)).content[0].text == "agent"
        await w.finish(w.call("add", {"a": 20, "b": 22}))
    events = [json.loads(line) for line in record.read_text().splitlines()]
    sent = [(e["tool"], e["arguments"]) for e in events if e["event"] == "call"]
    assert sent == [
        ("alpha/shared", {"text": "person"}),
        ("echo", {"text": "agent"}),
        ("add", {"a": 20, "b": 22}),
    ]
    replayed = fleet_tui("replay", str(record), "--mcp", mcp_alpha.url, "--mcp", mcp_beta.url)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "3/3 steps match" in replayed.stdout


async def test_a_computer_use_agent_moves_the_screenshot_pane_per_action(local_host):
    async with watched(local_target(local_host.base_url, "desktop-todo")) as w:
        pane = w.app.screenshot_pane
        await wait_for(w.pilot, lambda: pane.display and pane.image.data)
        x0, y0, x1, y1 = todo_gui.INPUT
        actions = [
            {"action": "left_click", "coordinate": [(x0 + x1) // 2, (y0 + y1) // 2]},
            {"action": "type", "text": "watch the agent"},
            {"action": "key", "text": "Return"},
        ]
        shown = [pane.image.data]
        for action in actions:
            result = await w.finish(w.call("computer", action))
            image = next(block for block in result.content if block.type == "image")
            sent = base64.b64decode(image.data)
            await wait_for(w.pilot, lambda sent=sent: pane.image.data == sent)
            shown.append(pane.image.data)
        assert len(set(shown)) == len(shown)  # every action changed what the pane shows
        assert all(r.caller == Caller.AGENT for r in w.app.controller.records[-3:])
