"""What a stdio MCP server writes on stdout, read as messages: one JSON-RPC message a line.

`LineSplitter` splits the bytes into lines in linear time (the mcp SDK's reader joins strings
chunk by chunk: a 40 MB reply took 29 s) and keeps at most `MAX_REPLY_BYTES` of one line: a
longer one is kept only as its first and last bytes, enough to find which request it answers.

`Replies` turns each line into the message the mcp session reads. A line that cannot be read
(too large, JSON cut short, not JSON-RPC) becomes a JSON-RPC error answering the request it
belongs to, so that call fails saying why and the connection carries on; the SDK would drop
the line and leave the call waiting for its timeout. Text that is not JSON at all (a banner, a
log line on stdout) is quoted in that error, bounded; when no request awaits an answer it is
handed to `on_stray`, so a connection that then times out can say what the server wrote.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from fleet_tui.envs.mcp_http import MAX_REPLY_BYTES, TOO_LARGE, cut_short, unreadable_error
from fleet_tui.text import one_line

logger = logging.getLogger(__name__)

EDGE_BYTES = 4096
"""How much of each end of an over-long line is kept to find its request's id."""
REQUEST_ID = re.compile(rb'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')
QUOTED_CHARS = 200
"""Characters of a stdout line that is not JSON quoted in the error it causes."""
NOT_JSON_RPC = "the server wrote on stdout what is not JSON-RPC"


def not_json_rpc(line: bytes) -> str:
    """Why a line of plain text on stdout cannot be a reply, quoting it (bounded)."""
    return f"{NOT_JSON_RPC}: {one_line(line.decode('utf-8', 'replace'), QUOTED_CHARS)!r}"


@dataclass(frozen=True)
class LongLine:
    """A line over the limit: its size and both ends."""

    size: int
    head: bytes
    tail: bytes


class LineSplitter:
    """Bytes in, whole lines out (without their b"\\n"); see the module."""

    def __init__(self, limit: int = MAX_REPLY_BYTES) -> None:
        self.limit = limit
        self._pieces: list[bytes] = []
        self._size = 0
        self._head = b""
        self._tail = b""

    def feed(self, chunk: bytes) -> Iterator[bytes | LongLine]:
        """The lines `chunk` completes."""
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            self._add(chunk[start:end])
            yield self._take()
            start = end + 1
        self._add(chunk[start:])

    def rest(self) -> bytes | LongLine | None:
        """What is left once the stream ended: a line cut short, if any."""
        return self._take() if self._size else None

    def _add(self, piece: bytes) -> None:
        if not piece:
            return
        self._size += len(piece)
        if self._size <= self.limit:
            self._pieces.append(piece)
            return
        if self._pieces or not self._head:  # it just went over: keep only its first bytes
            self._head = b"".join([*self._pieces, piece[:EDGE_BYTES]])[:EDGE_BYTES]
            self._pieces = []
        self._tail = (self._tail + piece[-EDGE_BYTES:])[-EDGE_BYTES:]

    def _take(self) -> bytes | LongLine:
        line: bytes | LongLine = (
            LongLine(self._size, self._head, self._tail)
            if self._size > self.limit
            else b"".join(self._pieces)
        )
        self._pieces, self._size, self._head, self._tail = [], 0, b"", b""
        return line


class Replies:
    """Lines to messages for the session, knowing which requests await an answer."""

    def __init__(self, on_stray: Callable[[str], None] | None = None) -> None:
        self.pending: set[Any] = set()
        """The ids of requests sent and not answered yet."""
        self.on_stray = on_stray
        """Told why a line answering no request was dropped (it quotes plain text)."""

    def sent(self, message: Any) -> None:
        """Note a message the session wrote (a request now awaits its answer)."""
        import mcp_types

        if isinstance(message, mcp_types.JSONRPCRequest):
            self.pending.add(message.id)
        elif isinstance(message, mcp_types.JSONRPCNotification) and message.method == (
            "notifications/cancelled"
        ):
            self.pending.discard((message.params or {}).get("requestId"))

    def message(self, line: bytes | LongLine) -> Any | None:
        """The SessionMessage for `line`; None for a blank line or one that answers nothing."""
        import mcp_types
        from mcp.shared.message import SessionMessage

        if isinstance(line, LongLine):
            return self._failed(line.head + b"\n" + line.tail, TOO_LARGE)
        if not line.strip():
            return None
        try:
            message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValidationError as error:
            first = error.errors()[0]
            if not line.lstrip().startswith((b"{", b"[")):
                return self._failed(line, not_json_rpc(line))
            if first["type"] == "json_invalid":
                return self._failed(line, cut_short(first.get("ctx", {}).get("error", "")))
            return self._failed(line, "not a JSON-RPC message")
        if isinstance(message, mcp_types.JSONRPCResponse | mcp_types.JSONRPCError):
            self.pending.discard(message.id)
        return SessionMessage(message)

    def _failed(self, text: bytes, problem: str) -> Any | None:
        """The error answering the request `text` belongs to; None (logged) when none can
        be told."""
        import mcp_types
        from mcp.shared.message import SessionMessage

        request_id = self._request_of(text)
        if request_id is None:
            logger.warning("dropped a line from a stdio server: %s", problem)
            if self.on_stray is not None:
                self.on_stray(problem)
            return None
        self.pending.discard(request_id)
        body = unreadable_error(request_id, problem)
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_python(body))

    def _request_of(self, text: bytes) -> Any | None:
        """The pending request whose id `text` names, else the only pending one."""
        for found in REQUEST_ID.finditer(text):
            with_id = json.loads(found.group(1))
            if with_id in self.pending:
                return with_id
        return next(iter(self.pending)) if len(self.pending) == 1 else None
