"""The gate in front of every server fleet-tui runs on 127.0.0.1: only its own callers get in.

`LoopbackGuard` wraps an ASGI app (the local host, the agent proxy, `fleet-tui openenv serve`).
A request, or a WebSocket upgrade, gets through when its `Host` names this server (127.0.0.1,
localhost or [::1] on the port it was received on), any `Origin` is this server's own, a body
(and every POST, PUT or PATCH) is `application/json`, and it carries the server's token as
`Authorization: Bearer <token>` (or as `X-Runner-Token`, which the Fleet SDK sends on instance
calls). Anything else is answered 4xx with a one-line `{"detail": ...}` and never reaches the
app: this is what stops a web page from driving the server, whether it opens a cross-site
WebSocket (browsers cannot add a header to one) or rebinds its own name to 127.0.0.1.

Standard library only: `fleet_tui/openenv_serve.py` loads this file by its path in another
virtualenv's Python, where fleet_tui's dependencies are not installed.
"""

from __future__ import annotations

import hmac
import secrets
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, NamedTuple

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

HOST = "127.0.0.1"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
JSON_TYPE = b"application/json"
RUNNER_TOKEN_HEADER = b"x-runner-token"
WRONG_TOKEN = "the token sent is not this host's token"
WEBSOCKET_DENIAL = "websocket.http.response"
"""The ASGI extension that lets a refused WebSocket upgrade get an HTTP answer with a reason."""


def loopback_socket(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port` (0 picks a free port) for a guarded server to
    serve on; connections made before it starts wait instead of being refused. OSError when
    the port cannot be had."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def new_token() -> str:
    """A random token for one run of a server."""
    return secrets.token_urlsafe(32)


def sendable_token(text: str) -> bool:
    """Whether `text` can be a token: visible ASCII without spaces, as a header carries it."""
    return bool(text) and text.isascii() and text.isprintable() and " " not in text


class Rejection(NamedTuple):
    status: int
    detail: str


def header_values(scope: Scope, name: bytes) -> list[bytes]:
    return [value for key, value in scope["headers"] if key == name]


def own_hosts(scope: Scope) -> set[bytes]:
    """The `Host` values that name this server: a loopback name with the port it listens on."""
    port = (scope.get("server") or (None, None))[1]
    if port is None:
        return set()
    names = {f"{name}:{port}" for name in LOOPBACK_NAMES}
    if port == 80:
        names.update(LOOPBACK_NAMES)
    return {name.encode() for name in names}


def has_body(scope: Scope) -> bool:
    lengths = header_values(scope, b"content-length")
    chunked = header_values(scope, b"transfer-encoding")
    return scope.get("method") in BODY_METHODS or bool(chunked) or any(v != b"0" for v in lengths)


def bearer_token(scope: Scope) -> bytes | None:
    """The token a request carries, from `Authorization: Bearer` or `X-Runner-Token`."""
    for value in header_values(scope, b"authorization"):
        scheme, _, token = value.partition(b" ")
        if scheme.lower() == b"bearer" and token.strip():
            return token.strip()
    runner = header_values(scope, RUNNER_TOKEN_HEADER)
    return runner[0].strip() if runner else None


def rejection(scope: Scope, token: bytes, token_hint: str) -> Rejection | None:
    """Why this request may not reach the server, or None (`token_hint`: what to say when the
    request carries no token)."""
    hosts = header_values(scope, b"host")
    allowed = own_hosts(scope)
    if len(hosts) != 1 or hosts[0].lower() not in allowed:
        return Rejection(400, "this host answers only to its loopback address (Host header)")
    origins = {b"http://" + host for host in allowed}
    if any(origin.lower() not in origins for origin in header_values(scope, b"origin")):
        return Rejection(403, "requests from other web pages are refused (Origin header)")
    given = bearer_token(scope)
    if given is None:
        return Rejection(401, token_hint)
    if not hmac.compare_digest(given, token):
        return Rejection(401, WRONG_TOKEN)
    content_type = b"".join(header_values(scope, b"content-type")[:1])
    if has_body(scope) and content_type.split(b";")[0].strip().lower() != JSON_TYPE:
        return Rejection(415, "the request body must be JSON (Content-Type: application/json)")
    return None


class LoopbackGuard:
    """Pure ASGI middleware letting only requests that pass `rejection` reach `app`."""

    def __init__(self, app: App, token: str, token_hint: str) -> None:
        self.app = app
        self.token = token.encode()
        self.token_hint = token_hint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        refused = rejection(scope, self.token, self.token_hint)
        if refused is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await refuse(send, "http.response", refused)
        elif WEBSOCKET_DENIAL in scope.get("extensions", {}):
            await refuse(send, "websocket.http.response", refused)
        else:  # a server without the extension: closed before it is accepted (an HTTP 403)
            await send({"type": "websocket.close", "code": 1008})


async def refuse(send: Send, kind: str, refused: Rejection) -> None:
    """Answer with `refused`'s status and `{"detail": ...}` (`kind`: the ASGI message type's
    start, `http.response` or, refusing a WebSocket upgrade, `websocket.http.response`)."""
    import json  # here: `fleet-tui --help` reads this module's token rule, and loads no json

    body = json.dumps({"detail": refused.detail}).encode()
    headers = [(b"content-type", JSON_TYPE), (b"content-length", str(len(body)).encode())]
    if refused.status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": f"{kind}.start", "status": refused.status, "headers": headers})
    await send({"type": f"{kind}.body", "body": body})
