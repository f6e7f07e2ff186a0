"""Many held agent calls (scripted agents over the real proxy, each call stopped at a
breakpoint) leave the app's keys quick: F1 shows its help at once."""

from __future__ import annotations

import asyncio
import contextlib
import time

from fleet_tui.envs.targets import Target
from fleet_tui.ui.frame_batch import FRAME_S
from fleet_tui.ui.screens.help import HelpScreen
from fleet_tui.ui.widgets.agent_pane import AgentPane
from tests.agent_driver import watched
from tests.app_driver import wait_for
from tests.fixtures.local_host import mcp_session

AGENTS = 20
CALLS_PER_AGENT = 50
"""An agent's HTTP client holds at most 100 requests open at once."""


async def test_f1_shows_help_at_once_with_a_thousand_held_agent_calls(two_servers: Target):
    """The held calls are listed again at most once a frame however fast they come (each
    hold listed them all again: a thousand grew with their square), and F1 shows at once."""
    async with watched(two_servers, "echo") as w, contextlib.AsyncExitStack() as agents:
        pane = w.app.query_one(AgentPane)
        shown = 0
        show_gate = pane.show_gate

        def counted_show_gate() -> None:
            nonlocal shown
            shown += 1
            show_gate()

        pane.show_gate = counted_show_gate  # type: ignore[method-assign]
        server = w.watch.server
        sessions = [
            await agents.enter_async_context(mcp_session(server.url, server.token))
            for _ in range(AGENTS)
        ]
        calls = [
            asyncio.ensure_future(session.call_tool("echo", {"text": f"call {i}"}))
            for session in sessions
            for i in range(CALLS_PER_AGENT)
        ]
        arriving = time.monotonic()
        await wait_for(w.pilot, lambda: len(w.held) == len(calls), 300)
        arrived_in = time.monotonic() - arriving
        assert shown <= arrived_in / FRAME_S + 2, f"listed {shown} times in {arrived_in:.1f} s"
        await w.pilot.press("ctrl+n")  # the Agent pane, its held calls focused
        await w.pilot.pause()
        started = time.monotonic()
        await w.pilot.press("f1")
        await wait_for(w.pilot, lambda: isinstance(w.app.screen, HelpScreen), 60)
        shown_after = time.monotonic() - started
        for call in calls:
            call.cancel()
        await asyncio.gather(*calls, return_exceptions=True)
    assert shown_after < 5, f"help took {shown_after:.1f} s to show"
