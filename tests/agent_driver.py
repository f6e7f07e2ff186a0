"""Watching a scripted agent in the app: the app runs under Pilot with `--serve-mcp`, and an
`mcp` SDK ClientSession (the agent) talks to its proxy over real HTTP with the bearer token."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from fleet_tui.controller import CallRecord
from fleet_tui.envs.targets import Target
from fleet_tui.proxy.gate import Breakpoint
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.ui.agent_watch import AgentWatch
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, wait_connected, wait_for
from tests.fixtures.local_host import mcp_session


@dataclass
class Watched:
    pilot: Pilot
    app: FleetTuiApp
    watch: AgentWatch
    agent: Any
    """The agent's mcp ClientSession."""

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> asyncio.Task:
        """The agent calls `tool` (in a task: a held call does not block the test)."""
        return asyncio.ensure_future(self.agent.call_tool(tool, arguments or {}))

    async def record_of(self, tool: str, status: str | None = None) -> CallRecord:
        """Wait for the latest agent record of `tool` (in `status`, if given)."""

        def found() -> CallRecord | None:
            records = [r for r in self.app.controller.records if r.tool == tool]
            hit = records[-1] if records and records[-1].caller == "agent" else None
            return hit if hit and (status is None or hit.status == status) else None

        return await wait_for(self.pilot, found)

    async def finish(self, task: Awaitable[Any]) -> Any:
        """Wait for an agent call, letting the app run meanwhile."""
        future = asyncio.ensure_future(task)
        await wait_for(self.pilot, future.done)
        return future.result()

    @property
    def held(self) -> list[int]:
        assert self.watch.calls is not None
        return [h.record.number for h in self.watch.calls.gate.held]


@contextlib.asynccontextmanager
async def watched(
    target: Target,
    *breakpoints: str,
    record: Path | None = None,
    expose_reset: bool = False,
    size: tuple[int, int] = SIZE,
) -> AsyncIterator[Watched]:
    """The app on `target` serving MCP (with `breakpoints`, recording to `record`, a `reset`
    tool if `expose_reset`) in a terminal of `size`, connected, and an agent connected to it."""
    features = TaskFeatures(recorder=SessionRecorder(record) if record else None)
    points = [Breakpoint.parse(text) for text in breakpoints]
    watch = AgentWatch(breakpoints=points, expose_reset=expose_reset)
    app = FleetTuiApp(target, recorder=features.recorder)
    app.extensions += [features.install, watch.install]
    try:
        async with app.run_test(size=size) as pilot:
            await wait_connected(pilot)
            server = await wait_for(pilot, lambda: watch.server)
            async with mcp_session(server.url, server.token) as agent:
                yield Watched(pilot, app, watch, agent)
            await watch.stop()
    finally:
        features.close()
