"""The MCP SDK's callbacks for what a server asks the client (elicitation, sampling, roots),
made from the plain handlers of `ClientHandlers` (envs/server_requests.py). Only the callbacks
given are declared to servers as capabilities.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.server_requests import (
    SAMPLING_MODEL,
    ElicitHandler,
    ElicitRequest,
    SampleHandler,
    SampleMessage,
    SampleRequest,
    root_uris,
)
from fleet_tui.text import describe_error, shortened

if TYPE_CHECKING:
    import mcp.types

MAX_SAMPLE_MESSAGES = 50
"""Messages of one sampling request shown to the person; the rest are summarised."""
MAX_MESSAGE_CHARS = 4_000
"""Characters of one message (or elicitation message) kept; longer ones are cut, saying so."""
USER_REJECTED = -1
"""The JSON-RPC error code the MCP specification uses when the person declines sampling."""


def server_request_callbacks(
    url: str,
    elicit: ElicitHandler | None,
    sample: SampleHandler | None,
    roots: Callable[[], list[str]] | None,
) -> dict[str, Any]:
    """`ClientSession` keyword arguments for the handlers that are set."""
    options: dict[str, Any] = {}
    if elicit is not None:
        options["elicitation_callback"] = _elicitation(url, elicit)
    if sample is not None:
        options["sampling_callback"] = _sampling(url, sample)
    if roots is not None:
        options["list_roots_callback"] = _roots(roots)
    return options


def _elicitation(url: str, elicit: ElicitHandler) -> Callable[..., Awaitable[Any]]:
    async def callback(_context: Any, params: Any) -> mcp.types.ElicitResult | mcp.types.ErrorData:
        import mcp.types

        request = ElicitRequest(
            endpoint=url,
            message=shortened(params.message, MAX_MESSAGE_CHARS),
            schema=getattr(params, "requested_schema", None) or {},
            url=params.url if params.mode == "url" else None,
        )
        try:
            answer = await elicit(request)
            return mcp.types.ElicitResult(action=answer.action, content=answer.content)
        except Exception as error:  # a handler's fault, or content the result cannot hold
            return _failed(error)

    return callback


def _sampling(url: str, sample: SampleHandler) -> Callable[..., Awaitable[Any]]:
    async def callback(
        _context: Any, params: Any
    ) -> mcp.types.CreateMessageResult | mcp.types.ErrorData:
        import mcp.types

        request = SampleRequest(
            endpoint=url,
            messages=sample_messages(params.messages),
            system_prompt=params.system_prompt,
            max_tokens=params.max_tokens,
        )
        try:
            reply = await sample(request)
        except Exception as error:
            return _failed(error)
        if reply is None:
            return mcp.types.ErrorData(code=USER_REJECTED, message="the user declined to sample")
        return mcp.types.CreateMessageResult(
            role="assistant",
            content=mcp.types.TextContent(type="text", text=reply),
            model=SAMPLING_MODEL,
            stop_reason="endTurn",
        )

    return callback


def _roots(roots: Callable[[], list[str]]) -> Callable[..., Awaitable[Any]]:
    async def callback(_context: Any) -> mcp.types.ListRootsResult:
        import mcp.types

        return mcp.types.ListRootsResult(
            roots=[mcp.types.Root.model_validate({"uri": uri}) for uri in root_uris(roots())]
        )

    return callback


def sample_messages(messages: list[mcp.types.SamplingMessage]) -> list[SampleMessage]:
    """The conversation as text, at most MAX_SAMPLE_MESSAGES messages."""
    kept = [
        SampleMessage(role=str(m.role), text=shortened(_content_text(m), MAX_MESSAGE_CHARS))
        for m in messages[:MAX_SAMPLE_MESSAGES]
    ]
    if len(messages) > len(kept):
        left = len(messages) - len(kept)
        kept.append(SampleMessage(role="note", text=f"… and {left:,} more messages not shown"))
    return kept


def _content_text(message: mcp.types.SamplingMessage) -> str:
    parts = []
    for block in message.content_as_list:
        text = getattr(block, "text", None)
        if isinstance(text, str):
            parts.append(text)
        else:
            mime = getattr(block, "mime_type", None)
            parts.append(f"[{block.type}{f' {mime}' if mime else ''}]")
    return "\n".join(parts)


def _failed(error: Exception) -> mcp.types.ErrorData:
    import mcp.types

    return mcp.types.ErrorData(code=mcp.types.INTERNAL_ERROR, message=describe_error(error))
