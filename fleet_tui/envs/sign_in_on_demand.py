"""An HTTP endpoint's OAuth sign-in (`oauth_flow.SignInAuth`), made only once it is needed.

The flow stands on the mcp SDK's OAuth client, whose modules and models took about 17 ms to
load and make at every connection, while most servers never ask for a sign-in. Until one is
needed, `SignInOnDemand` does what the flow does then: a request goes out as it is when no
sign-in is kept for the server (its file, `oauth_store.sign_in_file`, looked for once, at the
first request, when the flow would read it) and comes back asking for none. The flow is made
at the first request when a sign-in is kept, or when a reply asks for one: it is then handed
that reply, and signs in without sending the request again first.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING

import httpx2

from fleet_tui.envs.mcp_http import asks_sign_in
from fleet_tui.envs.oauth_store import sign_in_file
from fleet_tui.envs.server_requests import SignInHandler

if TYPE_CHECKING:
    from fleet_tui.envs.oauth_flow import SignInAuth


class SignInOnDemand(httpx2.Auth):
    """An endpoint's sign-in: `oauth_flow.SignInAuth`, made when first needed (see the module)."""

    def __init__(self, server_url: str, handler: SignInHandler, timeout_s: float) -> None:
        self.server_url = server_url
        self._handler = handler
        self.timeout_s = timeout_s
        self.flow: SignInAuth | None = None
        self._kept: bool | None = None
        """Whether a sign-in was kept for the server (None: no request went out yet)."""

    @property
    def handler(self) -> SignInHandler:
        return self._handler

    @handler.setter
    def handler(self, handler: SignInHandler) -> None:
        """Who is asked to sign in, from the next sign-in on (the flow's too, once made)."""
        self._handler = handler
        if self.flow is not None:
            self.flow.handler = handler

    @property
    def warning(self) -> str | None:
        """Why the sign-in is not kept for the next run, if it is not."""
        return self.flow.storage.warning if self.flow is not None else None

    def asked_since(self, moment: float) -> bool:
        """Whether a person was being waited for at some point since `moment` (monotonic)."""
        return self.flow is not None and self.flow.asked_since(moment)

    async def async_auth_flow(
        self, request: httpx2.Request
    ) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if self._kept is None:
            self._kept = _sign_in_kept(self.server_url)
        challenge: httpx2.Response | None = None
        if self.flow is None and not self._kept:
            response = yield request
            if request.method == "DELETE" or not asks_sign_in(response):
                return
            challenge = response
        flow = self._made().async_auth_flow(request, challenge)
        try:
            outgoing = await flow.__anext__()
            while True:
                outgoing = await flow.asend((yield outgoing))
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    def _made(self) -> SignInAuth:
        if self.flow is None:
            from fleet_tui.envs.oauth_flow import SignInAuth

            self.flow = SignInAuth(self.server_url, self._handler, self.timeout_s)
        return self.flow


def _sign_in_kept(server_url: str) -> bool:
    """Whether a sign-in file is kept for the server (True when that cannot be told: the flow
    then reads it, as it always did)."""
    try:
        return sign_in_file(server_url).exists()
    except (OSError, ValueError, RuntimeError):
        return True
