"""How a tools/call request is sent: through the mcp SDK's `call_tool`, or around its check.

`ClientSession.call_tool` checks structured content against the tool's output schema with
jsonschema, on the event loop and without any bound: a schema bomb (forms/budget.py) would
never finish and eat all memory. A tool whose output schema is over the budget is called with a
plain tools/call request instead, which the SDK does not check; the result says so where it is
shown (`output_note` of the output schema).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import mcp.types
    from mcp.client.session import ClientSession


def tool_call(
    name: str, arguments: dict[str, Any], output_schema: dict[str, Any] | None
) -> Callable[[ClientSession], Awaitable[mcp.types.CallToolResult]]:
    """The request for calling `name` on a session, checked by the SDK only when the output
    schema is within the budget."""
    from fleet_tui.forms.budget import over_budget  # slow to import (jsonschema): on first use

    if output_schema is None or over_budget(output_schema) is None:
        return lambda session: session.call_tool(name, arguments)
    import mcp.types

    request = mcp.types.CallToolRequest(
        params=mcp.types.CallToolRequestParams(name=name, arguments=arguments)
    )
    return lambda session: session.send_request(request, mcp.types.CallToolResult)
