"""The proxy's resources and prompts: the agent lists, reads and subscribes to the session's
resources and lists and gets its prompts, each asked of the session on its own loop (it routes
each to the endpoint that owns it), so the person's Resources and Prompts panes and the
agent see the same. A target without them (OpenEnv) lists none. A resource an agent
subscribes to is subscribed at the env (unsubscribing leaves a subscription the person made
alone), and each of its updates is told to the agents that subscribed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from mcp import types
from mcp.shared.exceptions import MCPError

from fleet_tui.controller import SessionController
from fleet_tui.envs.server_events import ResourceUpdated
from fleet_tui.proxy.catalog_wire import (
    prompt_result,
    prompts_result,
    read_result,
    resources_result,
    templates_result,
)
from fleet_tui.text import describe_error

T = TypeVar("T")


class ProxyCatalog:
    """The MCP handlers of the proxy's resources and prompts."""

    def __init__(
        self,
        session: SessionController,
        on_session_loop: Callable[[Callable[[], Coroutine[Any, Any, Any]]], Awaitable[Any]],
        ready: Callable[[], Awaitable[None]],
    ) -> None:
        self.session = session
        self._on_session_loop = on_session_loop
        self._ready = ready
        self._subscribers: dict[str, set[Any]] = {}
        """Each subscribed URI's agent sessions (the SDK's, on the server's loop)."""
        self._server_loop: asyncio.AbstractEventLoop | None = None
        session.subscribe(self._heard)

    async def _ask(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """`work()` on the session's loop; an error the agent reads when it fails."""
        await self._ready()
        try:
            return await self._on_session_loop(work)
        except Exception as error:
            raise MCPError(types.INTERNAL_ERROR, describe_error(error)) from None

    async def list_resources(self, _context: Any, _params: Any) -> types.ListResourcesResult:
        if not self.session.can_list_catalog:
            return resources_result([])
        resources, _templates = await self._ask(self.session.list_resources)
        return resources_result(resources.items)

    async def list_templates(
        self, _context: Any, _params: Any
    ) -> types.ListResourceTemplatesResult:
        if not self.session.can_list_catalog:
            return templates_result([])
        _resources, templates = await self._ask(self.session.list_resources)
        return templates_result(templates.items)

    async def read_resource(self, _context: Any, params: Any) -> types.ReadResourceResult:
        uri = str(params.uri)
        return read_result(await self._ask(lambda: self.session.read_resource(uri)))

    async def list_prompts(self, _context: Any, _params: Any) -> types.ListPromptsResult:
        if not self.session.can_list_catalog:
            return prompts_result([])
        return prompts_result((await self._ask(self.session.list_prompts)).items)

    async def get_prompt(self, _context: Any, params: Any) -> types.GetPromptResult:
        name, arguments = params.name, dict(params.arguments or {})
        return prompt_result(await self._ask(lambda: self.session.get_prompt(name, arguments)))

    async def subscribe(self, context: Any, params: Any) -> types.EmptyResult:
        uri = str(params.uri)
        self._server_loop = asyncio.get_running_loop()
        if uri not in self.session.subscriptions():
            await self._ask(lambda: self.session.set_subscription(uri, True))
        self._subscribers.setdefault(uri, set()).add(context.session)
        return types.EmptyResult()

    async def unsubscribe(self, context: Any, params: Any) -> types.EmptyResult:
        self._subscribers.get(str(params.uri), set()).discard(context.session)
        return types.EmptyResult()

    def _heard(self, event: object) -> None:
        """On the session's loop: tell a resource's update to the agents subscribed to it."""
        if not isinstance(event, ResourceUpdated) or self._server_loop is None:
            return
        for agent in list(self._subscribers.get(event.uri, ())):
            with contextlib.suppress(RuntimeError):  # the server has stopped
                asyncio.run_coroutine_threadsafe(_tell_updated(agent, event.uri), self._server_loop)


async def _tell_updated(agent: Any, uri: str) -> None:
    with contextlib.suppress(Exception):  # an agent that went away hears nothing
        await agent.send_resource_updated(uri)
