"""Server requests nested deeper than the mcp SDK reads. Its JSON parser stops at 200 levels
("recursion limit exceeded") and drops the request unanswered, so the server waits and the
call that made it ask hangs. An elicitation's schema is where a request nests that deep (a
150-level schema is 450 levels of JSON): such a request is read here with Python's json and
handed to the elicitation handler like any other, where the schema meets the same budget as a
tool's form (forms/budget.py); any other such request is answered with an error saying why.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fleet_tui.envs.mcp_callbacks import MAX_MESSAGE_CHARS
from fleet_tui.envs.server_requests import ElicitHandler, ElicitRequest
from fleet_tui.text import describe_error, shortened

INVALID_PARAMS = -32602
TOO_DEEP = "nested deeper than the MCP library reads"


def unread_request(item: Any) -> dict[str, Any] | None:
    """The JSON-RPC request a transport could not parse only because it nests too deeply, read
    with Python's json; None for anything else."""
    errors = getattr(item, "errors", None)
    if not callable(errors) or getattr(item, "title", None) is None:
        return None
    try:
        first = errors()[0]
        raw = first.get("input")
        if first.get("type") != "json_invalid" or "recursion limit" not in first.get("msg", ""):
            return None
        message = json.loads(raw)
    except (IndexError, TypeError, ValueError, RecursionError):
        return None
    if isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str):
        return message
    return None


class DeepRequests:
    """A transport's read stream that answers the requests it could not parse (see the module
    docstring) through `write`, and passes everything else on."""

    def __init__(self, inner: Any, write: Any, url: str, elicit: ElicitHandler | None) -> None:
        self._inner = inner
        self._write = write
        self._url = url
        self._elicit = elicit
        self._answering: set[asyncio.Task[None]] = set()

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not self._answered(item):
                return item

    def __aiter__(self) -> DeepRequests:
        return self

    async def __anext__(self) -> Any:
        while True:
            item = await self._inner.__anext__()
            if not self._answered(item):
                return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> DeepRequests:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)

    def _answered(self, item: Any) -> bool:
        """Whether `item` was a request too deep to parse, now being answered (in a task of
        its own: the person may take a while, and the session keeps reading meanwhile)."""
        request = unread_request(item)
        if request is None:
            return False
        task = asyncio.get_running_loop().create_task(self._answer(request))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)
        return True

    async def _answer(self, request: dict[str, Any]) -> None:
        import mcp.types
        from mcp.shared.message import SessionMessage

        try:
            result = await self._result(request)
            reply: Any = mcp.types.JSONRPCResponse(jsonrpc="2.0", id=request["id"], result=result)
        except Exception as error:
            error_data = mcp.types.ErrorData(code=INVALID_PARAMS, message=describe_error(error))
            reply = mcp.types.JSONRPCError(jsonrpc="2.0", id=request["id"], error=error_data)
        await self._write.send(SessionMessage(reply))

    async def _result(self, request: dict[str, Any]) -> dict[str, Any]:
        params = request.get("params")
        if request["method"] != "elicitation/create" or self._elicit is None:
            raise ValueError(f"{shortened(request['method'], 80)}: {TOO_DEEP}")
        if not isinstance(params, dict) or params.get("mode", "form") != "form":
            raise ValueError(f"elicitation/create: {TOO_DEEP}")
        schema = params.get("requestedSchema")
        answer = await self._elicit(
            ElicitRequest(
                endpoint=self._url,
                message=shortened(str(params.get("message", "")), MAX_MESSAGE_CHARS),
                schema=schema if isinstance(schema, dict) else {},
            )
        )
        result: dict[str, Any] = {"action": answer.action}
        if answer.content is not None:
            result["content"] = answer.content
        return result
