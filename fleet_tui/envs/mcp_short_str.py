"""Short `str()`/`repr()` for the mcp SDK's JSON-RPC envelopes, installed once on import.

The SDK's streamable HTTP client evaluates `logger.debug(f"SSE message: {message}")` (and
`f"Sending client message: {message}"`) for every message, with debug logging off too: the
f-string formats the whole pydantic model, ~100 ms of one event-loop step for a 10 MB result.
Naming the type, id and method instead keeps that step to the JSON validation. fleet-tui never
shows these strings: its traffic log and Protocol pane serialize messages themselves.
"""

from __future__ import annotations

from typing import Any

from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

ENVELOPES = (JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError)


def short_str(message: Any) -> str:
    """`JSONRPCResponse(id=3)`, `JSONRPCRequest(id=4, method='tools/call')`: never the payload."""
    parts = [
        f"{name}={getattr(message, name)!r}" for name in ("id", "method") if hasattr(message, name)
    ]
    return f"{type(message).__name__}({', '.join(parts)})"


for _envelope in ENVELOPES:
    _envelope.__str__ = short_str  # type: ignore[method-assign]
    _envelope.__repr__ = short_str  # type: ignore[method-assign]
