"""How a tools/call request is sent: around the mcp SDK's own check of the result.

`ClientSession.call_tool` checks structured content against the tool's output schema with
jsonschema, on the event loop and without any bound: a schema bomb (forms/budget.py) never
finishes and eats all memory, and a `pattern` that backtracks (`^(a|aa)+$`) holds the loop for
minutes. It also lists the tools again whenever it has not seen the tool's schema, and turns a
result that breaks the schema into an exception, so the result is lost. So every call is a plain
tools/call request; where the result is shown, it is checked with fleet-tui's own validator
(forms/validation.py: budget-screened schemas, regular expressions with a time limit) and its
mismatches are listed next to it.

Every call carries a progress callback, so the request has a progressToken and a server may
report how far it got.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import mcp.types
    from mcp.client.session import ClientSession


class Progress(Protocol):
    """Hears the server's progress notifications for one call (the SDK's `ProgressFnT`)."""

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None: ...


def tool_call(
    name: str, arguments: dict[str, Any], progress: Progress
) -> Callable[[ClientSession], Awaitable[mcp.types.CallToolResult]]:
    """The tools/call request for `name`, to send on a session, unchecked by the SDK;
    `progress` hears the server's progress notifications for it."""
    import mcp.types

    request = mcp.types.CallToolRequest(
        params=mcp.types.CallToolRequestParams(name=name, arguments=arguments)
    )
    return lambda session: session.send_request(
        request, mcp.types.CallToolResult, progress_callback=progress
    )
