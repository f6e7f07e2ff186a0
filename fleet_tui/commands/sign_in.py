"""A headless command's OAuth sign-in: the authorization URL on stderr, and a browser opened
on it from a terminal on a desktop (`fleet_tui.browser`)."""

from __future__ import annotations

import asyncio
import sys

from fleet_tui.browser import open_browser
from fleet_tui.commands.output import err
from fleet_tui.envs.server_requests import SignInRequest
from fleet_tui.text import describe_seconds


async def show_sign_in(request: SignInRequest) -> None:
    """Print where to sign in, open a browser there if that is safe, and wait (the sign-in
    cancels this when the browser comes back or the wait ends)."""
    err(f"{request.endpoint} asks you to sign in (OAuth). Open this URL in a browser:")
    err(f"  {request.url}")
    err(
        f"Waiting up to {describe_seconds(request.timeout_s)} for the browser to come back to "
        f"{request.redirect_uri} (Ctrl+C gives up)"
    )
    if sys.stderr.isatty():
        await asyncio.to_thread(open_browser, request.url)
    await asyncio.Event().wait()


class PrintedSignIn:
    """The port of a command that answers servers only their sign-ins (`SignsIn`): the proxy,
    whose servers' other requests stay undeclared."""

    async def sign_in(self, request: SignInRequest) -> None:
        await show_sign_in(request)
