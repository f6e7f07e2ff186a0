"""The MCP OAuth client flow for one HTTP endpoint, on the mcp SDK's `OAuthClientProvider`.

The SDK does discovery, dynamic client registration, PKCE, the token exchange and refresh;
`SignInAuth` adds what the person and the machine need:

- requests go out as they are until the server asks for a sign-in: a 401 with a `Bearer`
  challenge (or a 403 asking for more scope). A sign-in kept from an earlier run (per server
  URL, in a private file, `envs/oauth_store.py`) is sent from the first request on, refreshed
  first when it expired, asking no one;
- a lock is held only while a token is refreshed or a sign-in runs, never while a request of
  the session is out: calls made at once run at once, before and after a sign-in. A request
  that was refused while another one signed in is sent again with the new token;
- a server that asks for a token but publishes no OAuth metadata (a plain `Bearer` realm) gets
  no registration attempt: the error says to give the token as a header;
- only when a sign-in starts does the loopback listener (`envs/oauth_callback.py`) open, on
  the port the stored registration names when it can, so that registration stays valid;
- the authorization URL goes to the session's `SignInHandler` (a dialog in the app, stderr
  headless), and the wait for the browser is bounded (`SIGN_IN_TIMEOUT_S`); the handler
  returning early cancels the sign-in, its raising ends it with its error;
- the authorization server's replies are read up to 1 MB;
- a failed sign-in is a `SignInFailed` in plain words, never retried; so is a server that
  refuses the token it just issued.

`asked_since(moment)` tells the endpoint's connect timeout that a person was being waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata
from pydantic import AnyUrl

from fleet_tui.envs.mcp_http import asks_sign_in, size_words
from fleet_tui.envs.oauth_callback import CALLBACK_PATH, LoopbackCallback, SignInFailed
from fleet_tui.envs.oauth_store import TokenFile
from fleet_tui.envs.server_requests import SignInHandler, SignInRequest
from fleet_tui.text import describe_error, one_line

SIGN_IN_TIMEOUT_S = 300.0
"""How long a sign-in waits for the browser to come back."""

MAX_AUTHORIZATION_REPLY_BYTES = 1024 * 1024
"""The most an authorization server's reply (metadata, registration, token) may take."""

CLIENT_NAME = "fleet-tui"
PLACEHOLDER_REDIRECT = "http://127.0.0.1/callback"
"""The SDK wants a redirect URI up front; the listener's replaces it when a server asks."""


class SignInAuth(OAuthClientProvider):
    """The SDK's OAuth provider with fleet-tui's storage, listener and sign-in handler."""

    def __init__(
        self, server_url: str, handler: SignInHandler, timeout_s: float = SIGN_IN_TIMEOUT_S
    ) -> None:
        metadata = OAuthClientMetadata(
            client_name=CLIENT_NAME,
            redirect_uris=[AnyUrl(PLACEHOLDER_REDIRECT)],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        )
        self.storage = TokenFile(server_url)
        super().__init__(
            server_url,
            metadata,
            self.storage,
            redirect_handler=self._show,
            callback_handler=self._wait_for_browser,
        )
        self.server_url = server_url
        self.handler = handler
        self.timeout_s = timeout_s
        self.callback = LoopbackCallback()
        self._signing_in = asyncio.Lock()
        """Held while a token is refreshed or a sign-in runs (never while a request is out)."""
        self._shown: asyncio.Future[None] | None = None
        self._asking = False
        self._last_asked = -math.inf

    async def _initialize(self) -> None:
        """Load the stored sign-in with its token's expiry (the SDK keeps that in memory only),
        so an expired token is refreshed before it is sent, asking no one."""
        await super()._initialize()
        self.context.token_expiry_time = self.storage.expires_at()

    def asked_since(self, moment: float) -> bool:
        """Whether a person was being waited for at some point since `moment` (monotonic)."""
        return self._asking or self._last_asked >= moment

    async def async_auth_flow(
        self, request: httpx2.Request, challenge: httpx2.Response | None = None
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """Send `request` with the token there is (refreshed first if it expired, see the
        module); when the reply asks for a sign-in, sign in (or take the token another request
        just got) and send it once more. `challenge`: the reply asking for a sign-in that
        `request`, sent already, got (`sign_in_on_demand.py`): the flow starts there. Ending a
        session (DELETE) is sent with the token there is and never waits: a sign-in under way
        as the session closes must not hold it."""
        if request.method == "DELETE":
            if (bearer := self._bearer()) is not None:
                request.headers["Authorization"] = bearer
            yield request
            return
        for _ in range(1 if challenge is not None else 2):
            async with self._signing_in:
                current = self._bearer()
                sent = request.headers.get("authorization")
                if challenge is None or current is None or sent == current:
                    flow = super().async_auth_flow(request)
                    try:
                        outgoing = await flow.__anext__()
                        # The flow yields `request` when it would send it: before a sign-in
                        # (answered with the challenge we have) and after one (sent below).
                        while outgoing is not request or challenge is not None:
                            if outgoing is request and challenge is not None:
                                reply, challenge = challenge, None
                            else:
                                reply = yield outgoing
                            outgoing = await flow.asend(reply)
                    except StopAsyncIteration:
                        pass
                    finally:
                        await flow.aclose()
                else:  # another request signed in meanwhile: its token is the one to send
                    request.headers["Authorization"] = current
            response = yield request
            if not asks_sign_in(response):
                return
            challenge = response
        raise SignInFailed(
            f"{self.server_url} still asks for a sign-in (HTTP {response.status_code}) after "
            "one: it refuses the token it issued"
        )

    def _bearer(self) -> str | None:
        """The Authorization header the current token makes, if there is a valid one."""
        tokens = self.context.current_tokens
        if tokens is None or not self.context.is_token_valid():
            return None
        return f"Bearer {tokens.access_token}"

    async def _auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """The SDK's flow, with the listener opened when the server asks for a sign-in and
        closed when the flow ends, no registration without OAuth metadata, and its errors in
        plain words."""
        flow = super()._auth_flow(request)
        challenged = False
        try:
            outgoing = await flow.__anext__()
            while True:
                if challenged and outgoing is not request and outgoing.method != "GET":
                    # past discovery (GETs), before registering
                    self._require_metadata()
                response = yield outgoing
                if outgoing is not request:
                    response = await authorization_reply(outgoing, response)
                if outgoing is request and not challenged and asks_sign_in(response):
                    challenged = True
                    await self._listen()
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        except OAuthFlowError as error:
            # the SDK's message quotes the authorization server's whole reply
            reason = one_line(str(error), 300)
            raise SignInFailed(f"OAuth sign-in to {self.server_url} failed: {reason}") from None
        finally:
            await flow.aclose()
            await self.callback.close()

    def _require_metadata(self) -> None:
        """SignInFailed, saying to give a token, when the server published no OAuth metadata
        (its 401 asks for a token fleet-tui cannot get by signing in)."""
        if self.context.oauth_metadata is None:
            raise SignInFailed(
                f"{self.server_url} wants a token (it answered 401 and offers no OAuth "
                "sign-in): give it with --header 'Authorization: Bearer TOKEN'"
            )

    async def _listen(self) -> None:
        """Open the listener (on the stored registration's port if it is free) and make its
        address the redirect URI; a registration made for another port is dropped (the flow
        registers again)."""
        client = self.context.client_info
        registered = [str(uri) for uri in (client.redirect_uris or [])] if client else []
        port = next(filter(None, map(loopback_port, registered)), 0)
        try:
            await self.callback.open(port)
        except OSError:
            await self.callback.open(0)
        if self.callback.redirect_uri not in registered:
            self.context.client_info = None
        self.context.client_metadata.redirect_uris = [AnyUrl(self.callback.redirect_uri)]

    async def _show(self, authorization_url: str) -> None:
        self._require_metadata()
        state = parse_qs(urlsplit(authorization_url).query).get("state", [""])[0]
        self.callback.expect(state)
        self._asking = True
        request = SignInRequest(
            self.server_url, authorization_url, self.callback.redirect_uri, self.timeout_s
        )
        self._shown = asyncio.ensure_future(self.handler(request))

    async def _wait_for_browser(self) -> AuthorizationCodeResult:
        """The code the browser brings back; SignInFailed when the person gives up (the
        handler returns) or the wait ends."""
        shown = self._shown
        assert shown is not None, "the authorization URL is shown first"
        came_back = asyncio.ensure_future(self.callback.wait(self.timeout_s))
        try:
            waiting: set[asyncio.Future[Any]] = {came_back, shown}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if not came_back.done():
                failure = shown.exception()
                if failure is not None:
                    raise SignInFailed(
                        f"sign-in to {self.server_url} could not be shown: "
                        f"{describe_error(failure)}"
                    )
                raise SignInFailed(f"sign-in to {self.server_url} cancelled")
            result = came_back.result()
        finally:
            self._asking, self._last_asked = False, time.monotonic()
            for task in (came_back, shown):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        return AuthorizationCodeResult(code=result.code, state=result.state, iss=result.iss)


async def authorization_reply(
    request: httpx2.Request, response: httpx2.Response
) -> httpx2.Response:
    """`response` (to one of the flow's own requests: discovery, registration, token) read
    up to MAX_AUTHORIZATION_REPLY_BYTES; SignInFailed past that."""
    assert isinstance(response.stream, httpx2.AsyncByteStream)  # an async client's reply
    response.stream = CappedStream(response.stream, request)
    await response.aread()  # kept in the response: the SDK and httpx2 read it from there
    return response


class CappedStream(httpx2.AsyncByteStream):
    """A reply's body that raises SignInFailed once it passes MAX_AUTHORIZATION_REPLY_BYTES."""

    def __init__(self, inner: httpx2.AsyncByteStream, request: httpx2.Request) -> None:
        self.inner = inner
        self.request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        size = 0
        async for chunk in self.inner:
            size += len(chunk)
            if size > MAX_AUTHORIZATION_REPLY_BYTES:
                raise SignInFailed(
                    f"the authorization server's reply to {one_line(str(self.request.url), 120)}"
                    f" was over {size_words(MAX_AUTHORIZATION_REPLY_BYTES)}"
                )
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


def loopback_port(uri: str) -> int | None:
    """The port of a redirect URI fleet-tui's listener could take again, else None."""
    parts = urlsplit(uri)
    if parts.scheme == "http" and parts.hostname == "127.0.0.1" and parts.path == CALLBACK_PATH:
        return parts.port
    return None
