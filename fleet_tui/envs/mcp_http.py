"""The HTTP layer under the MCP client: replies are checked before the mcp SDK reads them.

The SDK turns an HTTP error status into "Server returned an error response" (the status is
lost), reads a JSON reply of any size into memory, and rejects a whole tools/list for one tool
it cannot parse. `GuardedTransport` sits under it, in the httpx2 client it is given:

- an error status without a JSON-RPC error body becomes a JSON-RPC error naming the status and
  what it most likely means;
- a JSON reply over `MAX_REPLY_BYTES` becomes a JSON-RPC error saying so (server-sent events
  are capped by the SDK's `max_sse_event_size`, given the same limit; over the SSE transport,
  by `envs/sse_cap.py`);
- in a tools/list reply, when `screens_listings` says so, each tool the SDK would reject is
  replaced by a usable stand-in that carries the reason under `BROKEN_TOOL_KEY` in its `_meta`,
  so the other tools still list (an endpoint asks for that only after the SDK rejected a
  listing of its server: screening parses each tool a second time);
- each request, its status and time to the response headers go to `on_exchange` (the network
  log, `envs/traffic.py`) when it is given;
- with `passes_sign_in`, a server's request for an OAuth sign-in (`asks_sign_in`) reaches the
  client's auth flow (`envs/oauth_flow.py`) as it is.

`unreadable_reply` tells, from what the SDK raised, that one reply could not be read (too large,
or JSON cut short) while the connection itself may be fine.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import time
import urllib.request
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit

import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, ListToolsResult
from mcp_types import methods as mcp_methods
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from fleet_tui.envs import mcp_short_str  # noqa: F401  (installs short JSON-RPC str())
from fleet_tui.envs.mcp_preload import shared_ssl_context
from fleet_tui.envs.results import BROKEN_TOOL_KEY
from fleet_tui.envs.traffic import HttpExchange
from fleet_tui.text import describe_error, leaf_errors

MAX_REPLY_BYTES = 64 * 1024 * 1024
"""The most one reply (a JSON body or one server-sent event) may hold in memory."""

TOO_LARGE_START = "result too large: over "


def _read_body(message: httpx2.Request | httpx2.Response) -> bytes | None:
    """A request's or response's body if it is already in memory (never read from a stream)."""
    try:
        return message.content
    except (httpx2.RequestNotRead, httpx2.ResponseNotRead):
        return None


def size_words(size: int) -> str:
    """A size limit in words: whole megabytes, or kilobytes below one."""
    return f"{size // 2**20} MB" if size >= 2**20 else f"{size // 1024} KB"


def too_large(limit: int) -> str:
    """What a request whose reply was over `limit` bytes gets instead."""
    return TOO_LARGE_START + size_words(limit)


TOO_LARGE = too_large(MAX_REPLY_BYTES)

JSON_DEPTH_LIMIT = 200
"""The deepest nesting the SDK's JSON parser accepts in one message (it refuses 202)."""

TOOL_DEPTH_IN_REPLY = 3
"""How deep a tool sits in a tools/list reply: the message, its result, the tools array."""

MCP_SESSION_ID = "mcp-session-id"
MCP_PROTOCOL_VERSION = "mcp-protocol-version"
FALLBACK_PROTOCOL_VERSION = "2025-11-25"
"""The version the SDK validates against before a protocol version is negotiated."""


class GuardedTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport that checks MCP replies before the SDK reads them (see the module)."""

    def __init__(
        self,
        url: str,
        on_exchange: Callable[[HttpExchange], None] | None = None,
        *,
        passes_sign_in: bool = False,
        screens_listings: Callable[[], bool] = lambda: True,
    ) -> None:
        self.inner = httpx2.AsyncHTTPTransport(
            proxy=environment_proxy(url), verify=shared_ssl_context()
        )
        self.on_exchange = on_exchange
        """Told of each request once its response headers arrived (the network log)."""
        self.passes_sign_in = passes_sign_in
        """Whether a request for a sign-in is left for the client's auth flow."""
        self.screens_listings = screens_listings
        """Asked at each tools/list reply: whether to screen it tool by tool (`screen_tool`),
        which parses every tool a second time (the SDK parses it too)."""

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if self.on_exchange is None:
            return await self._guarded(request)
        started = time.monotonic()
        try:
            response = await self._guarded(request)
        except Exception as error:
            self._report(request, started, None, error=describe_error(error))
            raise
        self._report(request, started, response)
        return response

    def _report(
        self,
        request: httpx2.Request,
        started: float,
        response: httpx2.Response | None,
        error: str | None = None,
    ) -> None:
        """Tell `on_exchange` of one request: its headers and body, and the response's (its
        body only when already read: a stream is left to the client)."""
        assert self.on_exchange is not None
        size = int(request.headers.get("content-length") or 0)
        headers = response.headers if response is not None else None
        exchange = HttpExchange(
            request.method,
            str(request.url),
            response.status_code if response is not None else None,
            time.monotonic() - started,
            size,
            (headers.get("content-type") if headers is not None else None) or "",
            error,
            request_headers=tuple(request.headers.multi_items()),
            response_headers=tuple(headers.multi_items()) if headers is not None else (),
            request_body=_read_body(request),
            response_body=_read_body(response) if response is not None else None,
        )
        with contextlib.suppress(Exception):  # a log that fails must not fail the request
            self.on_exchange(exchange)

    async def _guarded(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "POST":
            return response
        message = json_or_none(await request.aread())
        if not isinstance(message, dict) or "id" not in message:
            return response
        if response.status_code >= 400:
            return await self._error_status(request, response, message)
        content_type = response.headers.get("content-type", "").lower()
        listing = message.get("method") == "tools/list" and self.screens_listings()
        json_body = content_type.startswith("application/json")
        if not json_body and not (content_type.startswith("text/event-stream") and listing):
            return response
        try:
            body = await read_capped(response)
        except httpx2.TransportError as error:  # the connection closed in the middle of it
            problem = f"cut short: {describe_error(error)}"
            return jsonrpc_error(request, message, PARSE_ERROR, UNREADABLE_START + problem)
        if body is None:
            return jsonrpc_error(request, message, PARSE_ERROR, TOO_LARGE)
        if not listing:
            return replaced(request, response, body)
        screen = screen_tools_reply if json_body else screen_tools_events
        return replaced(request, response, screen(body, protocol_version(request)))

    async def _error_status(
        self, request: httpx2.Request, response: httpx2.Response, message: dict[str, Any]
    ) -> httpx2.Response:
        """Keep a JSON-RPC error body (not an OAuth one, whose `error` is a string), the SDK's
        reading of a 404 on a session and a request for a sign-in the client can answer;
        otherwise answer with a JSON-RPC error naming the status."""
        status = response.status_code
        if status == 404 and MCP_SESSION_ID in request.headers:
            return response
        if self.passes_sign_in and asks_sign_in(response):
            return response
        body = await read_capped(response)
        reply = json_or_none(body) if body is not None else None
        if body is not None and isinstance(reply, dict) and isinstance(reply.get("error"), dict):
            return replaced(request, response, body)
        transient = status >= 500 or status in (408, 429)
        code = INTERNAL_ERROR if transient else INVALID_REQUEST
        return jsonrpc_error(request, message, code, http_error_message(status))

    async def aclose(self) -> None:
        await self.inner.aclose()


def asks_sign_in(response: httpx2.Response) -> bool:
    """Whether the server asks for an OAuth sign-in: a 401 with a `Bearer` challenge, or a 403
    saying the token lacks scope (`insufficient_scope`)."""
    challenge = response.headers.get("www-authenticate", "")
    if not challenge.lower().startswith("bearer"):
        return False
    return response.status_code == 401 or (
        response.status_code == 403 and "insufficient_scope" in challenge
    )


UNREADABLE_START = "unreadable reply: "
"""How the JSON-RPC error a transport of fleet-tui's own makes for a reply it could not read
begins (stdio: `envs/stdio_lines.py`); the reason follows."""


def unreadable_error(request_id: Any, problem: str) -> dict[str, Any]:
    """The JSON-RPC error that stands for the reply to `request_id`, unreadable for `problem`."""
    return jsonrpc_error_body(request_id, PARSE_ERROR, UNREADABLE_START + problem)


def cut_short(detail: str) -> str:
    """What a reply that is not valid JSON most likely is, with the parser's `detail`."""
    return f"not valid JSON, most likely cut short ({detail})"


SSE_LIMIT = re.compile(r"exceeded the \d+ byte limit")
SDK_PARSE_FAILURES = ("Failed to parse JSON response", "Failed to parse SSE message")
"""How the SDK's own parse errors begin (a server's -32700 answer is not one of them)."""
INVALID_JSON = re.compile(r"Invalid JSON: (.*?) \[type=")


def unreadable_reply(error: BaseException) -> str | None:
    """Why the server's reply to one request could not be read, or None if that is not what
    `error` says: too large, or not valid JSON (most often a reply cut short)."""
    for leaf in leaf_errors(error):
        if not isinstance(leaf, MCPError):
            continue
        if leaf.code == PARSE_ERROR and leaf.message.startswith(UNREADABLE_START):
            return leaf.message.removeprefix(UNREADABLE_START)
        if leaf.message.startswith(TOO_LARGE_START):
            return leaf.message
        if SSE_LIMIT.search(leaf.message):
            return TOO_LARGE
        if leaf.code == PARSE_ERROR and leaf.message.startswith(SDK_PARSE_FAILURES):
            found = INVALID_JSON.search(leaf.message)
            detail = found.group(1) if found else leaf.message.splitlines()[0]
            return cut_short(detail)
    return None


def environment_proxy(url: str) -> str | None:
    """The proxy the environment names for `url` (HTTPS_PROXY, NO_PROXY, ...): an httpx2 client
    given its own transport no longer reads them. Worked out once per host and proxy settings
    (urllib reads the whole environment four times for it)."""
    parts = urlsplit(url)
    return proxy_for(parts.scheme, parts.hostname or "", proxy_settings())


def proxy_settings() -> tuple[tuple[str, str], ...]:
    """The environment's proxy variables (what `proxy_for`'s answer depends on; urllib ignores
    HTTP_PROXY when REQUEST_METHOD is set)."""
    return tuple(
        (name, value)
        for name, value in os.environ.items()
        if name[-6:].lower() == "_proxy" or name == "REQUEST_METHOD"
    )


@functools.lru_cache(maxsize=256)
def proxy_for(scheme: str, host: str, settings: tuple[tuple[str, str], ...]) -> str | None:
    """urllib's answer for `host` (`settings` keys the cache: other settings, another answer)."""
    if urllib.request.proxy_bypass(host):
        return None
    return urllib.request.getproxies().get(scheme)


def http_error_message(status: int) -> str:
    """The status and what it most likely means (whoever shows it names the endpoint)."""
    try:
        phrase = f" {HTTPStatus(status).phrase}"
    except ValueError:
        phrase = ""
    if status in (401, 403):
        hint = "check the credentials (the API key or token)"
    elif status in (404, 405):
        hint = "wrong path, or an SSE endpoint rather than streamable HTTP"
    elif status >= 500:
        hint = "the server failed (its log says why)"
    else:
        hint = "the server refused the request"
    return f"HTTP {status}{phrase}: {hint}"


async def read_capped(response: httpx2.Response) -> bytes | None:
    """The whole body, or None (and the response closed) once it passes MAX_REPLY_BYTES."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in response.aiter_raw():
            size += len(chunk)
            if size > MAX_REPLY_BYTES:
                return None
            chunks.append(chunk)
    finally:
        await response.aclose()
    return b"".join(chunks)


def replaced(request: httpx2.Request, response: httpx2.Response, body: bytes) -> httpx2.Response:
    """The same response (status, headers) carrying `body` as its content."""
    headers = [
        (name, value)
        for name, value in response.headers.multi_items()
        if name.lower() not in ("content-length", "content-encoding", "transfer-encoding")
    ]
    return httpx2.Response(response.status_code, headers=headers, content=body, request=request)


def jsonrpc_error(
    request: httpx2.Request, message: dict[str, Any], code: int, text: str
) -> httpx2.Response:
    """A JSON reply carrying a JSON-RPC error for `message`."""
    return httpx2.Response(200, json=jsonrpc_error_body(message["id"], code, text), request=request)


def jsonrpc_error_body(request_id: Any, code: int, text: str) -> dict[str, Any]:
    """The JSON-RPC error answering the request `request_id`."""
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}}


def json_or_none(data: bytes) -> Any:
    """The JSON value in `data`, or None if it is not JSON (or nests too deep to read)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def protocol_version(request: httpx2.Request) -> str:
    return request.headers.get(MCP_PROTOCOL_VERSION) or FALLBACK_PROTOCOL_VERSION


def screen_tools_reply(body: bytes, version: str) -> bytes:
    """A tools/list reply with each tool the SDK would reject replaced by a stand-in."""
    reply = json_or_none(body)
    result = reply.get("result") if isinstance(reply, dict) else None
    tools = result.get("tools") if isinstance(result, dict) else None
    if not isinstance(result, dict) or not isinstance(tools, list):
        return body
    screened = [screen_tool(tool, index, version) for index, tool in enumerate(tools)]
    if all(kept is tool for kept, tool in zip(screened, tools, strict=True)):
        return body
    return json.dumps({**reply, "result": {**result, "tools": screened}}).encode()


def screen_tool(tool: Any, index: int, version: str) -> Any:
    """The tool itself if the SDK accepts it, else a stand-in saying why it is broken."""
    problem = tool_problem(tool, version)
    if problem is None:
        return tool
    fields = tool if isinstance(tool, dict) else {}
    name = fields.get("name")
    description = fields.get("description")
    return {
        "name": name if isinstance(name, str) else f"tool #{index + 1}",
        "description": description if isinstance(description, str) else "",
        "inputSchema": {"type": "object"},
        "_meta": {BROKEN_TOOL_KEY: problem},
    }


def tool_problem(tool: Any, version: str) -> str | None:
    """Why the SDK would reject this listed tool, or None."""
    if json_depth(tool) + TOOL_DEPTH_IN_REPLY > JSON_DEPTH_LIMIT:
        limit = JSON_DEPTH_LIMIT - TOOL_DEPTH_IN_REPLY
        return f"nested more than {limit} levels deep"
    listing = {"tools": [tool]}
    try:
        mcp_methods.validate_server_result("tools/list", version, listing)
        ListToolsResult.model_validate(listing, by_name=False)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][2:]) or "the tool"
        return f"{where}: {plain_reason(first)}"
    except (KeyError, ValueError):  # a protocol version the SDK does not list
        return None
    return None


OBJECT_EXPECTED = ("model_type", "model_attributes_type", "dict_type")
"""pydantic's error types for "not an object" (their messages name the SDK's classes)."""


def plain_reason(error: ErrorDetails) -> str:
    """A pydantic error in plain words, without the SDK's class names."""
    if error["type"] in OBJECT_EXPECTED:
        return "should be a JSON object"
    if error["type"] == "missing":
        return "missing"
    return error["msg"].removeprefix("Input ")


def json_depth(value: Any) -> int:
    """How many arrays and objects nest at the deepest point of `value` (iteratively)."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return deepest


EVENT_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")


def screen_tools_events(body: bytes, version: str) -> bytes:
    """A tools/list reply sent as server-sent events, each event's data screened as JSON."""
    events = EVENT_END.split(body)
    return b"\n\n".join(screen_event(event, version) for event in events)


def screen_event(event: bytes, version: str) -> bytes:
    """One server-sent event, its data replaced if screening changed it."""
    lines = event.splitlines()
    data = b"\n".join(line[5:].removeprefix(b" ") for line in lines if line.startswith(b"data:"))
    if not data:
        return event
    screened = screen_tools_reply(data, version)
    if screened is data:
        return event
    kept = [line for line in lines if not line.startswith(b"data:")]
    return b"\n".join([*kept, b"data: " + screened])
