"""Per-instance MCP servers: each runs its own streamable-HTTP session manager.

A session manager's `run()` must be entered and exited by the same task, and must be running
before it can serve a request. `McpMount.start` therefore starts one long-lived task per
server in the host's task group; `stop` asks that task to leave `run()` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
from anyio.abc import TaskGroup, TaskStatus
from starlette.responses import JSONResponse

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.types import Receive, Scope, Send


class McpMount:
    """One instance's MCP servers, keyed by their path under the instance root."""

    def __init__(self, servers: dict[str, MCPServer]) -> None:
        self.managers: dict[str, StreamableHTTPSessionManager] = {}
        for path, server in servers.items():
            server.streamable_http_app(host="127.0.0.1")
            self.managers[path] = server.session_manager
        self._stop = anyio.Event()

    async def start(self, task_group: TaskGroup) -> None:
        """Returns once every server accepts requests."""
        for manager in self.managers.values():
            await task_group.start(self._serve, manager)

    async def _serve(
        self, manager: StreamableHTTPSessionManager, *, task_status: TaskStatus[None]
    ) -> None:
        async with manager.run():
            task_status.started()
            await self._stop.wait()

    def stop(self) -> None:
        self._stop.set()


class McpEndpoint:
    """The ASGI app behind `/instances/{id}/<path>`: hands the request to that instance's
    session manager, or answers 404 for an unknown or stopped instance."""

    def __init__(self, path: str, lookup) -> None:
        self.path = path
        self.lookup = lookup
        """instance id -> McpMount or None"""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        instance_id = scope["path_params"]["instance_id"]
        mount = self.lookup(instance_id)
        if mount is None:
            response = JSONResponse(
                {"detail": f"Instance '{instance_id}' not found or not running"}, status_code=404
            )
            await response(scope, receive, send)
            return
        await mount.managers[self.path].handle_request(scope, receive, send)
