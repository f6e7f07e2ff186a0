"""Server-sent events over the SSE transport, each kept under a size limit.

The mcp SDK's SSE client reads at most `SSE_EVENT_LIMIT` bytes in one event and, past it,
closes the whole connection; it offers no way to raise that. `EventCappedTransport` sits in the
httpx2 client the SDK is given and hands on each event of an event stream only once it is
complete (the stream itself stays open as long as the server keeps it). An event over the limit
is dropped: when it is the reply to a request (its id is found at its start or its end, where
the Python and TypeScript SDKs put it), the request gets a JSON-RPC error saying the result is
too large and the connection carries on; otherwise the stream fails with an error saying so.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import httpx2
from mcp_types import PARSE_ERROR

from fleet_tui.envs.mcp_http import jsonrpc_error_body, size_words, too_large
from fleet_tui.text import PlainError

SSE_EVENT_LIMIT = 1024 * 1024
"""The most one server-sent event may hold over SSE (the mcp SDK's SSE client's own limit)."""

KEPT_ENDS = 512
"""Bytes kept of the start and of the end of a dropped event, to find its id."""

LINE_END = re.compile(rb"\r\n|\r|\n")
JSON_ID = rb'(-?\d+|"(?:[^"\\]|\\.)*")'
ID_FIRST = re.compile(
    rb'^data: ?\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*'
    + JSON_ID
    + rb'\s*,\s*"(?:result|error)"',
    re.MULTILINE,
)
"""A reply that names its id before its result (the Python SDK's order)."""
RESULT_FIRST = re.compile(rb'^data: ?\{\s*"(?:result|error)"\s*:', re.MULTILINE)
ID_LAST = re.compile(rb'"id"\s*:\s*' + JSON_ID + rb"\s*\}\s*$")
"""A reply that names its id last (the TypeScript SDK's order), as its event ends."""


class EventTooLarge(PlainError, httpx2.SSEError):
    """An event over the limit that answers no request: the SSE connection ends (the SDK ends
    it on an `SSEError`), saying why in plain words."""


class EventCappedTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport whose event-stream responses hand on only events within `limit`."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, limit: int) -> None:
        self.inner = inner
        self.limit = limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        content_type = response.headers.get("content-type", "").lower()
        if not content_type.startswith("text/event-stream"):
            return response
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        return httpx2.Response(
            response.status_code,
            headers=response.headers,
            stream=CappedEvents(response.stream, self.limit),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


class CappedEvents(httpx2.AsyncByteStream):
    """An event stream's bytes, handed on an event at a time, an event over `limit` replaced."""

    def __init__(self, inner: httpx2.AsyncByteStream, limit: int) -> None:
        self.inner = inner
        self.cutter = EventCutter(limit)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:  # an event left unfinished at the end is dropped, as
            if complete := self.cutter.feed(chunk):  # the SDK drops it
                yield complete

    async def aclose(self) -> None:
        await self.inner.aclose()


class EventCutter:
    """Splits an event stream into events (an event ends at a blank line), holding at most
    `limit` bytes of the one in progress."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.event = bytearray()
        self.dropped: tuple[bytes, bytearray] | None = None
        """The start and (growing) end of an event being dropped."""
        self.at_line_start = True
        self.after_cr = False

    def feed(self, chunk: bytes) -> bytes:
        """The events `chunk` completes, as bytes to hand on."""
        complete = bytearray()
        start = 0
        if self.after_cr and chunk.startswith(b"\n"):  # the rest of a "\r\n" cut in two
            self._keep(b"\n")
            start = 1
        for end in LINE_END.finditer(chunk, start):
            blank = self.at_line_start and end.start() == start
            self._keep(chunk[start : end.end()])
            self.at_line_start = True
            start = end.end()
            if blank:
                complete += self._finish()
        if start < len(chunk):
            self._keep(chunk[start:])
            self.at_line_start = False
        self.after_cr = chunk.endswith(b"\r")
        return bytes(complete)

    def _keep(self, data: bytes) -> None:
        if self.dropped is not None:
            tail = self.dropped[1]
            tail += data
            del tail[:-KEPT_ENDS]
        elif len(self.event) + len(data) > self.limit:
            self.event += data[:KEPT_ENDS]
            self.dropped = (bytes(self.event[:KEPT_ENDS]), bytearray(data[-KEPT_ENDS:]))
            self.event.clear()
        else:
            self.event += data

    def _finish(self) -> bytes:
        """The event that just ended, or what stands for it if it was dropped."""
        if self.dropped is None:
            event = bytes(self.event)
            self.event.clear()
            return event
        head, tail = self.dropped
        self.dropped = None
        reply_id = dropped_reply_id(head, bytes(tail))
        if reply_id is None:
            raise EventTooLarge(
                f"a server-sent event was over {size_words(self.limit)} and could not be "
                "read, so the SSE connection was closed"
            )
        text = f"{too_large(self.limit)}, the most one event may hold over SSE"
        body = jsonrpc_error_body(reply_id, PARSE_ERROR, text)
        return b"event: message\ndata: " + json.dumps(body).encode() + b"\n\n"


def dropped_reply_id(head: bytes, tail: bytes) -> int | str | None:
    """The id of the JSON-RPC reply an event carried, from its first and last bytes; None if
    it is not a reply or its id cannot be told."""
    if found := ID_FIRST.search(head):
        return json.loads(found.group(1))
    if RESULT_FIRST.search(head) and (found := ID_LAST.search(tail)):
        return json.loads(found.group(1))
    return None
