"""Readable one-line messages for the exceptions the transports raise.

The mcp transport reports failures as (nested) ExceptionGroups from anyio task groups; a user
wants "connection refused", not a group of one.
"""

from __future__ import annotations

import asyncio


def leaf_errors(error: BaseException) -> list[BaseException]:
    """The non-group exceptions inside `error`, cancellations last (they are rarely the cause)."""
    if isinstance(error, BaseExceptionGroup):
        leaves = [leaf for inner in error.exceptions for leaf in leaf_errors(inner)]
        return sorted(leaves, key=lambda leaf: isinstance(leaf, asyncio.CancelledError))
    return [error]


def describe_error(error: BaseException) -> str:
    """One line naming what went wrong, with duplicates removed."""
    lines: list[str] = []
    for leaf in leaf_errors(error):
        line = _describe_leaf(leaf)
        if line not in lines:
            lines.append(line)
    return "; ".join(lines) or type(error).__name__


def _describe_leaf(error: BaseException) -> str:
    status = http_status(error)
    if status is not None:
        return f"HTTP {status} from {error.response.url}"
    if isinstance(error, TimeoutError):
        return str(error) or "timed out"
    name = type(error).__name__
    if name == "ConnectError":
        return f"cannot connect ({error})" if str(error) else "cannot connect"
    message = getattr(error, "message", None) or str(error)
    if name == "MCPError" and message:  # the mcp SDK's wrapper: its message is the whole story
        return message
    return f"{name}: {message}" if message else name


def http_status(error: BaseException) -> int | None:
    """The HTTP status of an httpx/httpx2 HTTPStatusError, else None."""
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


MCP_TRANSIENT_CODES = (-32000, -32603)
"""mcp's codes for a lost connection (CONNECTION_CLOSED) and for an HTTP error status other
than 404 (INTERNAL_ERROR: a gateway's 502/503 while an instance starts, among others)."""


def is_retryable(error: BaseException) -> bool:
    """False when trying again cannot help: the server answered with a client error (HTTP 4xx)
    or with an MCP error that is not transient (a 404, a protocol error)."""
    if isinstance(error.__cause__, BaseException) and error.__cause__ is not error:
        return is_retryable(error.__cause__)
    for leaf in leaf_errors(error):
        status = http_status(leaf)
        if status is not None and 400 <= status < 500 and status not in (408, 429):
            return False
        code = getattr(leaf, "code", None)
        if type(leaf).__name__ == "MCPError" and code not in MCP_TRANSIENT_CODES:
            return False
    return True
