"""The proxy's MCP endpoint: the session's tools over streamable HTTP on 127.0.0.1.

The server runs on a thread of its own (its own event loop, as the local host does); each call
is handed to the loop that owns the session (the app's, or the headless command's) and awaited
there, so the session is only ever touched from its own loop; while it is under way the
agent's request is watched (`request_watch.py`) and hears what the env says of it
(`forwarding.py`). Requests pass the loopback guard first: a loopback `Host`, no foreign
`Origin`, and the proxy's bearer token.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import socket
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from fleet_tui.controller import ConnectionState
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.traffic import TrafficRecorder
from fleet_tui.loopback_guard import HOST, LoopbackGuard, loopback_socket, new_token
from fleet_tui.private_files import make_private_dir, state_dir, write_private
from fleet_tui.proxy.agent_calls import AgentCalls, AgentRequest
from fleet_tui.proxy.catalog_handlers import ProxyCatalog
from fleet_tui.proxy.forwarding import Forwarding
from fleet_tui.proxy.request_watch import client_name, watch_request
from fleet_tui.proxy.served_traffic import ServedTraffic
from fleet_tui.text import describe_error

T = TypeVar("T")
PATH = "/mcp"
SERVER_NAME = "fleet-tui"
TOKEN_HINT = "the proxy needs its token as `Authorization: Bearer <token>` (fleet-tui prints it)"
START_TIMEOUT_S = 10.0
READY_TIMEOUT_S = 300.0
"""How long an agent's request waits for a session that is still connecting."""


def _bind(port: int) -> socket.socket:
    try:
        return loopback_socket(port)
    except OSError as error:
        raise EnvError(f"cannot serve MCP on {HOST}:{port}: {error.strerror or error}") from None


class ProxyServer:
    """Serves `calls`' session as one MCP endpoint; `start` it, then `stop` it."""

    def __init__(
        self,
        calls: AgentCalls,
        loop: asyncio.AbstractEventLoop,
        *,
        port: int = 0,
        token: str | None = None,
        context: contextvars.Context | None = None,
        expose_reset: bool = False,
        on_request: Callable[[str, Any], None] | None = None,
    ) -> None:
        self.calls = calls
        self.expose_reset = expose_reset
        """Whether the agent gets a `reset` tool (it then hides an env tool of that name)."""
        self.loop = loop
        """The loop that owns the session: calls run there."""
        self.context = context
        """The context calls run in (the app's, where Textual finds its app), or a fresh one."""
        self.token = token or new_token()
        self.on_request = on_request
        """Hears each request an agent sends (its method and params), on the session's loop."""
        self._traffic = TrafficRecorder(self._on_loop(calls.session.add_traffic), side="agent")
        self._forwarding = Forwarding()
        calls.session.subscribe(self._forwarding.heard)
        self._sock = _bind(port)
        self.port: int = self._sock.getsockname()[1]
        config = uvicorn.Config(
            LoopbackGuard(self._served(), self.token, TOKEN_HINT),
            log_config=None,
            log_level="warning",
            lifespan="on",
            access_log=False,
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="fleet-tui-proxy", daemon=True)
        self._errors: list[BaseException] = []

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{PATH}"

    def client_config(self, name: str = SERVER_NAME) -> dict[str, Any]:
        """A ready MCP client configuration (the `mcpServers` form most clients read)."""
        headers = {"Authorization": f"Bearer {self.token}"}
        return {"mcpServers": {name: {"type": "http", "url": self.url, "headers": headers}}}

    def write_client_config(self, folder: Path | None = None) -> Path:
        """The client configuration written to a file only its owner reads (it holds the
        token), in `folder` (default: the state folder's `proxy`); its path."""
        folder = folder or state_dir() / "proxy"
        make_private_dir(folder)
        path = folder / f"mcp-client-{self.port}.json"
        write_private(path, (json.dumps(self.client_config(), indent=2) + "\n").encode())
        return path

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """Start serving; returns once the server accepts connections."""
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if self._errors or not self._thread.is_alive() or time.monotonic() > deadline:
                reason = describe_error(self._errors[0]) if self._errors else "it did not start"
                raise EnvError(f"the MCP proxy did not start: {reason}")
            time.sleep(0.01)

    def _run(self) -> None:
        try:
            self._server.run(sockets=[self._sock])
        except BaseException as error:  # reported by `start`
            self._errors.append(error)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving (open agent connections are closed); returns when the thread ended."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout)
        self._sock.close()

    # -- the MCP server ----------------------------------------------------------------------

    def _served(self) -> ServedTraffic:
        """The MCP app, its messages with the agent told to the session's traffic."""
        heard = self._on_loop(self.on_request) if self.on_request else None
        return ServedTraffic(self._app(), self._traffic, heard or (lambda method, params: None))

    def _on_loop(self, work: Callable[..., None]) -> Callable[..., None]:
        """`work`, called on the session's loop (in `context`) from the server's thread."""

        def on_loop(*args: Any) -> None:
            context = self.context.copy() if self.context is not None else None
            self.loop.call_soon_threadsafe(work, *args, context=context)

        return on_loop

    def _app(self) -> Any:
        from mcp.server.lowlevel import Server

        catalog = ProxyCatalog(self.calls.session, self._on_session_loop, self._ready)
        server = Server(
            SERVER_NAME,
            instructions="fleet-tui: the tools of the env a person is watching.",
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=catalog.list_resources,
            on_list_resource_templates=catalog.list_templates,
            on_read_resource=catalog.read_resource,
            on_subscribe_resource=catalog.subscribe,
            on_unsubscribe_resource=catalog.unsubscribe,
            on_list_prompts=catalog.list_prompts,
            on_get_prompt=catalog.get_prompt,
        )
        return server.streamable_http_app(streamable_http_path=PATH, host=HOST)

    async def _in_context(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """`work()`, as a task in `context` on the session's loop."""
        context = self.context.copy() if self.context is not None else None
        return await self.loop.create_task(work(), context=context)

    async def _on_session_loop(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """`work()` run on the session's loop (in `context`), awaited from the server's."""
        future = asyncio.run_coroutine_threadsafe(self._in_context(work), self.loop)
        return await asyncio.wrap_future(future)

    async def _ready(self) -> None:
        """Wait (bounded) while the session is still connecting, so an agent started with the
        app gets the tools once they are there."""
        connecting = (ConnectionState.CONNECTING, ConnectionState.RECONNECTING)
        deadline = time.monotonic() + READY_TIMEOUT_S
        while self.calls.session.state in connecting and time.monotonic() < deadline:
            await asyncio.sleep(0.1)

    async def _list_tools(self, _context: Any, _params: Any) -> Any:
        from mcp import types

        from fleet_tui.proxy.reset_tool import RESET_TOOL, reset_tool
        from fleet_tui.proxy.wire import mcp_tool

        await self._ready()
        tools = [mcp_tool(tool) for tool in self.calls.session.tools if tool.broken is None]
        if self.expose_reset:
            tools = [tool for tool in tools if tool.name != RESET_TOOL] + [reset_tool()]
        return types.ListToolsResult(tools=tools)

    async def _call_tool(self, context: Any, params: Any) -> Any:
        from fleet_tui.proxy.callers import agent_of
        from fleet_tui.proxy.reset_tool import RESET_TOOL, reset_answer, reset_request
        from fleet_tui.proxy.wire import mcp_error, mcp_result

        await self._ready()
        arguments = dict(params.arguments or {})
        request = AgentRequest(client=client_name(context), agent=agent_of(context))
        resetting = self.expose_reset and params.name == RESET_TOOL
        if resetting:
            try:
                seed, options = reset_request(arguments)
            except EnvError as error:
                return mcp_error(error.message)
            work = self._in_context(lambda: self.calls.reset(seed, options))
        else:
            work = self._in_context(lambda: self.calls.call(params.name, arguments, request))
        try:
            future = asyncio.run_coroutine_threadsafe(work, self.loop)
        except RuntimeError:  # the session's loop has ended: fleet-tui is closing
            work.close()
            return mcp_error("fleet-tui is closing: the call was not made.")
        answering = asyncio.wrap_future(future)
        watching = asyncio.ensure_future(watch_request(answering, context, request))
        try:
            with self._forwarding.tracking(request, context):
                answer = await answering
        finally:
            watching.cancel()
        if resetting:
            return reset_answer(answer.reset, answer.error)
        if answer.result is None:
            return mcp_error(answer.error or "The call failed.")
        return mcp_result(answer.result)
