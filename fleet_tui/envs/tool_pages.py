"""One page of a server's tools/list, parsed once.

The SDK's `ClientSession.list_tools` checks the reply against the negotiated protocol version's
schema, then parses it a second time into its version-free `Tool` objects, which fleet-tui
reads once more into its own `Tool`s (`results.tool_from_wire`). On a connection of the
handshake era (before 2026-07-28) nothing else comes of that second parse for fleet-tui: the
SDK keeps each tool's output schema there, for the checks of its `call_tool`, which fleet-tui
does not use (it sends tools/call itself, `envs/tool_call.py`, and checks results against
the output schema itself). So a page is asked with the session's `send_request` into plain
mappings: the SDK still checks it against the version's schema, so what it accepts or rejects
is unchanged, and fleet-tui builds its tools from the checked JSON as it came (no copy).

On a modern connection (2026-07-28), `list_tools` does more with a listing: it drops tools whose
`x-mcp-header` annotations are invalid, and keeps the headers each tools/call must then carry.
There the SDK's `list_tools` is used as it is, and its tools are read back into the same
wire fields.

The garbage collector is held off while a page is asked and read: a page of 10,000 tools makes
some 300,000 objects that all live on, and the full collections their growing number set off
while they were made took half the time of reading them (none of them garbage).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, Field

from fleet_tui.collector import held_off
from fleet_tui.envs.protocol_revision import is_modern
from fleet_tui.envs.results import listed_fields

if TYPE_CHECKING:
    import mcp.types
    from mcp.client.session import ClientSession


class PageAsker(Protocol):
    """Asks a session for the page of a list at `params`' cursor (the first without one)."""

    def __call__(
        self, session: ClientSession, *, params: mcp.types.PaginatedRequestParams | None
    ) -> Awaitable[Any]: ...


class ToolPage(BaseModel):
    """One page of a tool listing: each tool's JSON as the SDK checked it (wire names; read by
    `results.tool_from_wire`, which reads the protocol's fields only)."""

    tools: list[Any]
    next_cursor: str | None = Field(default=None, alias="nextCursor")


async def tool_page(
    session: ClientSession, *, params: mcp.types.PaginatedRequestParams | None
) -> ToolPage:
    """The page of tools at `params`' cursor (the first page without one)."""
    import mcp.types

    with held_off():  # the collector (see the module), as long as the request's time limit
        if is_modern(session.protocol_version):
            listed = await session.list_tools(params=params)
            tools = [listed_fields(tool) for tool in listed.tools]
            return ToolPage(tools=tools, nextCursor=listed.next_cursor)
        return await session.send_request(mcp.types.ListToolsRequest(params=params), ToolPage)
