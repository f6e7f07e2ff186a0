"""The session's resources and prompts, and the MCP tasks its servers keep, as
`SessionController` methods (it inherits `CatalogSession`): listing them, subscribing to
resources, completing arguments. Front ends ask the session, never the env, so they need not
know which envs speak MCP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fleet_tui.envs.base import Env, EnvError
from fleet_tui.envs.capabilities import ServesCatalog
from fleet_tui.session_records import ConnectionState

if TYPE_CHECKING:  # an MCP env's own, loaded with it (when connecting, after the first frame)
    from fleet_tui.envs.catalog import Prompt, Resource, ResourceTemplate
    from fleet_tui.envs.mcp_catalog import Listing, McpCatalog
    from fleet_tui.envs.server_events import ServerTask


class CatalogSession:
    """What a session offers of its servers' resources and prompts."""

    env: Env | None
    state: ConnectionState

    def catalog(self) -> McpCatalog | None:
        """The env's resources, templates and prompts when it speaks MCP and is connected."""
        env = self.env
        connected = self.state == ConnectionState.CONNECTED
        return env.catalog() if connected and isinstance(env, ServesCatalog) else None

    def mcp_catalog(self) -> McpCatalog:
        """The catalog (see `catalog`); EnvError when there is none."""
        catalog = self.catalog()
        if catalog is None:
            raise EnvError("not connected to a target that speaks MCP")
        return catalog

    @property
    def can_list_catalog(self) -> bool:
        """Whether there are resources and prompts to ask for (see `catalog`)."""
        return self.catalog() is not None

    async def list_resources(self) -> tuple[Listing[Resource], Listing[ResourceTemplate]]:
        """The servers' resources and resource templates."""
        catalog = self.mcp_catalog()
        return await catalog.resources(), await catalog.templates()

    async def list_prompts(self) -> Listing[Prompt]:
        return await self.mcp_catalog().prompts()

    async def list_server_tasks(self) -> Listing[ServerTask]:
        """The MCP tasks the servers keep for this session (`tasks/list`, where offered)."""
        return await self.mcp_catalog().server_tasks()

    def subscriptions(self) -> set[str]:
        """The URIs of the resources subscribed to (their updates are `ResourceUpdated`)."""
        catalog = self.catalog()
        return set(catalog.subscribed) if catalog is not None else set()

    async def set_subscription(self, uri: str, subscribed: bool) -> None:
        """Subscribe to the updates of the resource at `uri`, or unsubscribe."""
        catalog = self.mcp_catalog()
        await (catalog.subscribe(uri) if subscribed else catalog.unsubscribe(uri))

    async def complete(
        self, ref: Prompt | ResourceTemplate, argument: str, value: str, context: dict[str, str]
    ) -> list[str]:
        """The server's completions of `value` for an argument of a prompt or template."""
        return await self.mcp_catalog().complete(ref, argument, value, context)
