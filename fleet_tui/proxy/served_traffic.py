"""The agent's side of the protocol: the JSON-RPC messages an agent sends the proxy ("in") and
what the proxy answers it ("out"), as traffic entries on the `agent` side, beside the session's
traffic with its env (the Protocol pane shows both, told apart).

`ServedTraffic` is ASGI middleware around the proxy's MCP app: it reads each request's body
(one message, or a batch) and each response's, whole JSON or server-sent events (their `data:`
lines), without changing them. Entries go through `envs.traffic`'s recorder, so they are
redacted and bounded as the env's are; a body past `MAX_BODY_BYTES` is not read as messages.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from fleet_tui.envs.traffic import TrafficRecorder
from fleet_tui.loopback_guard import Message, Receive, Scope, Send

MAX_BODY_BYTES = 8 * 1024 * 1024
"""Bytes of one request or response kept to be read as messages (a bigger one is skipped)."""


class ServedTraffic:
    """Tells `recorder` every JSON-RPC message between an agent and `app`; `heard(method,
    params)` hears each request the agent sends."""

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        recorder: TrafficRecorder,
        heard: Callable[[str, Any], None] = lambda method, params: None,
    ) -> None:
        self.app = app
        self.recorder = recorder
        self.heard = heard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        where = f"agent{scope.get('path', '')}"
        request = bytearray()
        response = bytearray()
        streaming = False

        async def receive_told() -> Message:
            message = await receive()
            if message.get("type") == "http.request":
                _keep(request, message.get("body", b""))
                if not message.get("more_body"):
                    self._tell(where, "in", bytes(request), streaming=False)
            return message

        async def send_told(message: Message) -> None:
            nonlocal streaming
            if message.get("type") == "http.response.start":
                headers = dict(message.get("headers") or [])
                streaming = b"event-stream" in headers.get(b"content-type", b"")
            elif message.get("type") == "http.response.body":
                _keep(response, message.get("body", b""))
                if streaming:  # each whole event is told as it comes
                    whole = bytes(response).replace(b"\r\n", b"\n")
                    *events, rest = whole.split(b"\n\n")
                    response[:] = rest
                    for event in events:
                        self._tell(where, "out", event, streaming=True)
                elif not message.get("more_body"):
                    self._tell(where, "out", bytes(response), streaming=False)
            await send(message)

        await self.app(scope, receive_told, send_told)

    def _tell(self, where: str, direction: str, body: bytes, *, streaming: bool) -> None:
        from mcp.types import JSONRPCNotification, JSONRPCRequest, jsonrpc_message_adapter

        text = body.decode("utf-8", "replace")
        if streaming:
            lines = text.splitlines()
            text = "\n".join(line[5:].lstrip() for line in lines if line.startswith("data:"))
        try:
            parsed = json.loads(text) if text.strip() else None
        except ValueError:
            return
        for item in parsed if isinstance(parsed, list) else [parsed]:
            try:
                message = jsonrpc_message_adapter.validate_python(item)
            except ValueError:
                continue
            self.recorder.message(where, direction, message)
            if direction == "in" and isinstance(message, JSONRPCRequest | JSONRPCNotification):
                self.heard(message.method, message.params)


def _keep(buffer: bytearray, chunk: bytes) -> None:
    """Add `chunk` unless the buffer would pass MAX_BODY_BYTES (then it is emptied: a half
    message is no message)."""
    if len(buffer) + len(chunk) <= MAX_BODY_BYTES:
        buffer.extend(chunk)
    else:
        buffer.clear()
