"""The Agent pane in an 80x24 terminal: the held calls and the run's timeline stay in sight
below the pane's fixed part (address, state, breakpoints)."""

from __future__ import annotations

from fleet_tui.envs.targets import Target
from fleet_tui.session_records import CallStatus
from fleet_tui.ui.widgets.agent_pane import AgentPane, HeldCalls
from fleet_tui.ui.widgets.timeline_list import TimelineList
from tests.agent_driver import watched
from tests.app_driver import screen_text, wait_for


async def test_at_80x24_the_held_calls_and_the_timeline_are_in_sight(
    two_servers: Target, mcp_alpha, mcp_beta
):
    async with watched(two_servers, "echo", size=(80, 24)) as w:
        held = w.call("echo", {"text": "held at 80x24"})
        await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("ctrl+n")
        await wait_for(w.pilot, lambda: w.app.query_one(HeldCalls).option_count == 1)
        await w.pilot.pause()
        pane = w.app.query_one(AgentPane).region
        for list_type in (HeldCalls, TimelineList):
            box = w.app.query_one(list_type).region
            assert box.height >= 3, (list_type.__name__, box, pane)
            assert pane.contains_region(box), (list_type.__name__, box, pane)
        assert "held at 80x24" in screen_text(w.app)
        await w.pilot.press("x")
        await w.finish(held)
