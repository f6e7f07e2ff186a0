"""What the env says while an agent's call runs, told to that agent: the server's progress
reports of the call (`notifications/progress`, to an agent whose request asked for progress),
and the servers' log messages (`notifications/message`, on the stream of each agent call
then running at the env)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

from fleet_tui.controller import CallStatus
from fleet_tui.envs.server_events import ServerLog
from fleet_tui.proxy.agent_calls import AgentRequest
from fleet_tui.session_records import CallProgress


class Forwarding:
    """The agent requests under way and their MCP contexts; `heard` is a session listener."""

    def __init__(self) -> None:
        self._live: dict[int, tuple[AgentRequest, Any]] = {}
        self._server_loop: asyncio.AbstractEventLoop | None = None

    @contextlib.contextmanager
    def tracking(self, request: AgentRequest, context: Any) -> Iterator[None]:
        """While the block runs (on the server's loop), `request` hears what the env says."""
        self._server_loop = asyncio.get_running_loop()
        self._live[id(request)] = (request, context)
        try:
            yield
        finally:
            self._live.pop(id(request), None)

    def heard(self, event: object) -> None:
        """On the session's loop: forward a call's progress or a server's log message."""
        if isinstance(event, CallProgress):
            for request, context in list(self._live.values()):
                if request.record is event.record:
                    progress = context.session.report_progress(
                        event.progress, event.total, event.message
                    )
                    self._send(progress)
        elif isinstance(event, ServerLog):
            for request, context in list(self._live.values()):
                record = request.record
                if record is not None and record.status == CallStatus.RUNNING:
                    log = context.session.send_log_message(
                        event.level, event.data, event.logger, context.request_id
                    )
                    self._send(log)

    def _send(self, notification: Any) -> None:
        """Send on the server's loop; a notification an agent cannot hear is dropped."""
        if self._server_loop is None:
            notification.close()
            return
        try:
            asyncio.run_coroutine_threadsafe(_quietly(notification), self._server_loop)
        except RuntimeError:  # the server has stopped
            notification.close()


async def _quietly(notification: Any) -> None:
    with contextlib.suppress(Exception):
        await notification
