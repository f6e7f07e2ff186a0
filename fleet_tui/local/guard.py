"""The local host's gate: it runs verifier code, so only its own callers may reach it.

`HostGuard` wraps the host's ASGI app. A request gets through when its `Host` names this host
(127.0.0.1, localhost or [::1] on the port it was received on), any `Origin` is this host's own,
a body (and every POST, PUT or PATCH) is `application/json`, and it carries the host's token as
`Authorization: Bearer <token>` (or as `X-Runner-Token`, which the SDK sends on instance calls
after asking `/v1/runner-auth/token` for it). Anything else is answered 4xx with a one-line
`{"detail": ...}` and never reaches the app: this is what stops a web page that rebinds its
name to 127.0.0.1 from creating instances and running its own verifier code.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING, NamedTuple

from starlette.responses import JSONResponse

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
JSON_TYPE = b"application/json"
RUNNER_TOKEN_HEADER = b"x-runner-token"
HOST_TOKEN_HINT = "this host needs its token as the API key (`fleet-tui local serve` prints it)"


def new_token() -> str:
    """A random token for one run of the host."""
    return secrets.token_urlsafe(32)


class Rejection(NamedTuple):
    status: int
    detail: str


def header_values(scope: Scope, name: bytes) -> list[bytes]:
    return [value for key, value in scope["headers"] if key == name]


def own_hosts(scope: Scope) -> set[bytes]:
    """The `Host` values that name this host: a loopback name with the port it listens on."""
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


def rejection(scope: Scope, token: bytes, token_hint: str = HOST_TOKEN_HINT) -> Rejection | None:
    """Why this request may not reach the host, or None (`token_hint`: what to say when the
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
        return Rejection(401, "the API key is not this host's token")
    content_type = b"".join(header_values(scope, b"content-type")[:1])
    if has_body(scope) and content_type.split(b";")[0].strip().lower() != JSON_TYPE:
        return Rejection(415, "the request body must be JSON (Content-Type: application/json)")
    return None


class HostGuard:
    """Pure ASGI middleware letting only requests that pass `rejection` reach `app`."""

    def __init__(self, app: ASGIApp, token: str, token_hint: str = HOST_TOKEN_HINT) -> None:
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
            headers = {"WWW-Authenticate": "Bearer"} if refused.status == 401 else None
            response = JSONResponse(
                {"detail": refused.detail}, status_code=refused.status, headers=headers
            )
            await response(scope, receive, send)
        else:  # a websocket: closed before it is accepted (the client sees a 403)
            await send({"type": "websocket.close", "code": 1008})
