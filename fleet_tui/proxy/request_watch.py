"""An agent's request while its call is under way: keep the agent waiting while the call is
held, and notice an agent that went away.

While the call waits at the gate, an agent whose request carried a progress token gets a
`notifications/progress` every `PROGRESS_EVERY_S` saying a person holds it: clients that reset
their timeout on progress keep waiting. An agent whose HTTP connection closed (it was killed,
or closed its transport) can never get the answer: its call is cancelled, which abandons it if
it is still held (a call already at the env finishes and is recorded). An agent that cancels
(`notifications/cancelled`) needs no watching: the MCP server cancels its request itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fleet_tui.proxy.agent_calls import AgentRequest

CHECK_EVERY_S = 0.5
"""How often the agent's connection is looked at."""
PROGRESS_EVERY_S = 2.0
"""How often a held call's agent is told it is still held."""


def held_message(held_s: float) -> str:
    return f"held by a person for {held_s:.0f} s"


def client_name(context: Any) -> str | None:
    """The name the agent's MCP client gave in `initialize`, if it gave one."""
    params = getattr(context.session, "client_params", None)
    return params.client_info.name if params is not None else None


async def _gone(context: Any) -> bool:
    """Whether the HTTP request that carries the agent's call was closed by the agent."""
    request = getattr(context, "request", None)
    if request is None or not hasattr(request, "is_disconnected"):
        return False
    return bool(await request.is_disconnected())


async def watch_request(work: asyncio.Future[Any], context: Any, request: AgentRequest) -> None:
    """Until `work` (the agent's call) is done: progress while it is held; cancel it when the
    agent's connection has closed."""
    told = 0
    last_told = time.monotonic()
    while not work.done():
        await asyncio.wait({work}, timeout=CHECK_EVERY_S)
        if work.done():
            return
        if await _gone(context):
            work.cancel()
            return
        held_since, now = request.held_since, time.monotonic()
        if held_since is not None and now - last_told >= PROGRESS_EVERY_S:
            told, last_told = told + 1, now
            with contextlib.suppress(Exception):  # an agent that cannot hear it is seen as gone
                await context.session.report_progress(told, None, held_message(now - held_since))
