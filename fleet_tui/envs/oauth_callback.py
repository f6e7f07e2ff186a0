"""The browser's way back from an OAuth sign-in: a one-shot HTTP listener on 127.0.0.1.

`LoopbackCallback` listens on a loopback port (its `redirect_uri` is `http://127.0.0.1:PORT/
callback`) while a sign-in waits. It answers only a `GET /callback` whose `Host` names it
(127.0.0.1 or localhost on its port: a web page that rebinds its name to 127.0.0.1 is refused)
and whose `state` is the one of the authorization URL shown; such a request carries the code,
ends the wait and gets a short plain-text page. A request with another state is refused and the
wait goes on. Each request's head is bounded in bytes and time, the wait in time, and the
connections open at once in number: a new connection past the bound closes the one open longest,
so connections left open (a slow or hostile local client) cannot keep the browser's redirect
out, which is answered as soon as its head arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from fleet_tui.envs.errors import EnvError
from fleet_tui.text import describe_seconds, one_line

CALLBACK_PATH = "/callback"
MAX_HEAD_BYTES = 16 * 1024
"""The most a request line and its headers may take."""
READ_TIMEOUT_S = 10.0
"""How long one connection may take to send its request."""
MAX_CONNECTIONS = 64
"""The most connections open at once; one more closes the one open longest, unanswered."""


class SignInFailed(EnvError):
    """An OAuth sign-in did not complete (cancelled, timed out, refused); trying the same
    connection again cannot help."""

    retryable = False


@dataclass(frozen=True)
class Callback:
    """What the authorization server sent back through the browser."""

    code: str
    state: str
    iss: str | None = None


class LoopbackCallback:
    """A listener on 127.0.0.1 for one authorization's redirect (see the module)."""

    def __init__(self) -> None:
        self._server: asyncio.Server | None = None
        self._port = 0
        self._state: str | None = None
        self._result: asyncio.Future[Callback] | None = None
        self._open: dict[asyncio.StreamWriter, None] = {}
        """The connections being served, oldest first."""

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self._port}{CALLBACK_PATH}"

    async def open(self, port: int = 0) -> None:
        """Listen on 127.0.0.1:`port` (0: any free port); OSError when it is taken."""
        await self.close()
        self._state = None  # the previous authorization's redirect is not this one's
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(
            self._serve, "127.0.0.1", port, limit=MAX_HEAD_BYTES
        )
        self._port = self._server.sockets[0].getsockname()[1]

    def expect(self, state: str) -> None:
        """Accept only a redirect carrying `state` (the authorization URL's)."""
        self._state = state

    async def wait(self, timeout: float) -> Callback:
        """The redirect's code and state, once the browser brings them back."""
        assert self._result is not None, "open() first"
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise SignInFailed(
                f"no sign-in within {describe_seconds(timeout)}: the authorization URL was not "
                f"opened, or the browser did not come back to {self.redirect_uri}"
            ) from None

    async def close(self) -> None:
        """Stop listening and end the wait; a later open() is left alone."""
        server, self._server = self._server, None
        result, self._result = self._result, None
        if result is not None and not result.done():
            result.cancel()
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2.0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._open[writer] = None
        if len(self._open) > MAX_CONNECTIONS:
            oldest = next(iter(self._open))
            del self._open[oldest]
            oldest.transport.abort()
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT_S)
                status, page = self._answer(head.decode("latin-1"))
            except (asyncio.LimitOverrunError, asyncio.IncompleteReadError, TimeoutError):
                status, page = 400, "The request could not be read."
            except ValueError:  # a request target urlsplit cannot read
                status, page = 400, "The request target is not a URL."
            body = f"{page}\n".encode()
            writer.write(
                f"HTTP/1.1 {status} {REASONS[status]}\r\n"
                "Content-Type: text/plain; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\n"
                "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
                "Connection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (ConnectionError, OSError):
            pass  # the client went away
        finally:
            self._open.pop(writer, None)
            writer.close()

    def _answer(self, head: str) -> tuple[int, str]:
        """The status and page for one request's head; a right redirect ends the wait."""
        request_line, *header_lines = head.split("\r\n")
        method, _, rest = request_line.partition(" ")
        target = rest.rpartition(" ")[0]
        hosts = [
            value.strip().lower()
            for name, _, value in (line.partition(":") for line in header_lines)
            if name.strip().lower() == "host"
        ]
        own = (f"127.0.0.1:{self._port}", f"localhost:{self._port}")
        if len(hosts) != 1 or hosts[0] not in own:
            return 400, "This listener answers only to its loopback address (Host header)."
        parts = urlsplit(target)
        if method != "GET" or parts.path != CALLBACK_PATH:
            return 404, "Not found."
        query = {name: values[0] for name, values in parse_qs(parts.query).items()}
        state = query.get("state", "")
        if not self._state or not secrets.compare_digest(state, self._state):
            return 400, (
                "This is not the sign-in fleet-tui is waiting for (its state does not match). "
                "Nothing was signed in."
            )
        if self._result is None or self._result.done():
            return 410, "This sign-in is already over."
        if "error" in query:
            reason = " ".join(filter(None, (query["error"], query.get("error_description"))))
            self._result.set_exception(
                SignInFailed(f"the authorization server refused: {one_line(reason, 300)}")
            )
            return 200, f"The sign-in was refused ({one_line(reason, 300)}). Back to fleet-tui."
        if not query.get("code"):
            return 400, "The redirect carries no authorization code."
        self._result.set_result(Callback(query["code"], state, query.get("iss")))
        return 200, "fleet-tui is signed in. You can close this tab and go back to the terminal."


REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    410: "Gone",
}
