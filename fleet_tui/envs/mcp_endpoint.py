"""One MCP endpoint: the long-lived task that owns its connection, and requests on it.

The connection is owned by one asyncio task: it enters the transport and the ClientSession,
signals "connected", parks until asked to stop (pinging now and then to notice a dead server),
and leaves the `async with` itself (anyio cancel scopes must be exited by the task that entered
them). Requests run in whichever task asks and fail fast when the connection dies meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, cast

from fleet_tui.envs.base import EndpointState, EndpointStatus
from fleet_tui.envs.call_clock import DEFAULT_CALL_TIMEOUT_S, ProgressClock
from fleet_tui.envs.errors import is_retryable
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.mcp_transports import EndpointSpec, Transport
from fleet_tui.envs.protocol_revision import is_modern, level_on_modern, negotiate
from fleet_tui.envs.server_info import server_info
from fleet_tui.text import describe_error, leaf_errors, one_line

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

    from fleet_tui.envs.sign_in_on_demand import SignInOnDemand
    from fleet_tui.envs.tool_pages import PageAsker

T = TypeVar("T")

MAX_TOOL_PAGES = 100
"""How many pages one listing (of tools, resources, templates or prompts) follows before it
stops (a server may never stop returning a next cursor)."""
OWNER_END_WAIT_S = 0.5
"""How long a request whose connection died waits for the connection to say why it ended."""


@dataclass(frozen=True)
class Timeouts:
    """Seconds allowed for each kind of operation."""

    connect: float = 20.0
    list: float = 30.0
    call: float | None = DEFAULT_CALL_TIMEOUT_S
    """How long a call may go without an answer or a progress report (None: no limit); a call
    may choose its own (envs/call_clock.py)."""
    close: float = 5.0
    ping: float | None = 15.0
    """How often an idle connection is checked, so a dead server shows as down (None: never)."""
    lost_reply_ping: float = 5.0
    """After a request ends without an answer: how long a ping may take to show that the
    connection is fine and only that reply was lost."""
    sign_in: float = 300.0
    """How long an OAuth sign-in waits for the browser to come back (the connect timeout
    does not run meanwhile)."""


DEFAULT_TIMEOUTS = Timeouts()


class EndpointDown(Exception):
    """The endpoint is not connected, or its connection died; the message says why."""

    def __init__(self, message: str, *, retryable: bool = True) -> None:
        super().__init__(message)
        self.retryable = retryable


class NoAnswer(Exception):
    """The server ended one request without an answer but still answers pings: that reply was
    lost (the server failed while sending it, or a proxy cut it); the connection is fine."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.at = time.monotonic()
        """When the request ended (before the ping that told what it meant)."""


class UnreadableReply(Exception):
    """The server's reply to one request could not be read (too large, or JSON cut short); the
    connection itself may be fine."""


class McpEndpoint:
    """One MCP endpoint and the task that owns its connection."""

    def __init__(
        self,
        spec: EndpointSpec,
        timeouts: Timeouts,
        handlers: ClientHandlers | None = None,
        child_stderr: TextIO | None = None,
    ) -> None:
        self.spec = spec
        self.url = spec.name
        self.timeouts = timeouts
        self.handlers = handlers or ClientHandlers()
        """What the session does with what the server sends on its own (read at each open)."""
        self.child_stderr = child_stderr
        """Where a stdio server's stderr is echoed besides `status.output` (None: nowhere)."""
        self.status = EndpointStatus(url=spec.name, transport=spec.first_transport)
        self._session: ClientSession | None = None
        self._owner: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._stop = asyncio.Event()
        self._failure: str | None = None
        self._retryable = True
        self.listing_warning: str | None = None
        """What was wrong with the last tools/list that still gave tools, if anything."""
        self._sign_in: SignInOnDemand | None = None
        self.log_level_taken: str | None = None
        """The log level this connection's server took when it opened (None: none asked, or
        it did not take it)."""
        self.opened = 0
        """How many connections opened (more than one: the current one reopened it)."""
        self.screens_listings = False
        """Whether tools/list replies are screened tool by tool (see `list_tools`)."""

    @property
    def sign_in_warning(self) -> str | None:
        """Why this endpoint's sign-in is not kept for the next run, if it is not."""
        return self._sign_in.warning if self._sign_in else None

    @property
    def is_up(self) -> bool:
        owner = self._owner
        return (
            self._session is not None
            and owner is not None
            and not owner.done()
            and not self._stop.is_set()
        )

    async def open(self) -> None:
        """Start the owner task and wait until the session is initialized (one attempt)."""
        await self.close(final=False)
        self._connected, self._stop = asyncio.Event(), asyncio.Event()
        self._failure, self._retryable = None, True
        self._set_state(EndpointState.CONNECTING)
        self._owner = asyncio.create_task(self._own(), name=f"mcp-connection {self.url}")
        try:
            await self._until_connected()
        except TimeoutError:  # not retried: a silent server would cost the timeout again
            self._failure = f"no answer within {self.timeouts.connect:g}s{self._stray_note()}"
            self._retryable = False
        except BaseException:
            await self.close()
            raise
        if not self.is_up:
            failure = self._failure or "connection closed"
            await self.close(final=False)
            self._set_state(EndpointState.DOWN, failure)
            raise EndpointDown(failure, retryable=self._retryable)
        self.opened += 1
        self.log_level_taken = None
        if self.handlers.log_level is not None and self.offers_logging:
            with contextlib.suppress(Exception):  # the level is a wish: never fail a connection
                await self.set_log_level(self.handlers.log_level)
                self.log_level_taken = self.handlers.log_level

    def _stray_note(self) -> str:
        """What a stdio server wrote on stdout that is not JSON-RPC, if it did (the likely
        reason it never answered), as the end of a failure."""
        from fleet_tui.envs.stdio_lines import NOT_JSON_RPC

        said = [line for line in self.status.output if line.startswith(NOT_JSON_RPC)]
        return f" ({said[-1]})" if said else ""

    async def _until_connected(self) -> None:
        """Wait for the session, up to the connect timeout (TimeoutError past it)."""
        connected = asyncio.ensure_future(self._connected.wait())
        try:
            if not await self._first_of({connected}, self.timeouts.connect):
                raise TimeoutError
        finally:
            connected.cancel()

    async def _first_of(
        self,
        waits: set[asyncio.Future[Any]],
        timeout: float | None,
        clock: ProgressClock | None = None,
    ) -> set[Any]:
        """Those of `waits` done once the first is; empty once `timeout` seconds passed with no
        sign of life (None: never). A person asked to sign in (the server may ask in the
        middle of any request) or, with a `clock`, a progress report restarts the count."""
        since = time.monotonic()
        while True:
            left = None if timeout is None else max(0.0, since + timeout - time.monotonic())
            done, _ = await asyncio.wait(waits, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            if done:
                return done
            restarted = clock.last_heard if clock is not None else since
            if self._sign_in is not None and self._sign_in.asked_since(since):
                restarted = time.monotonic()
            if restarted <= since:
                return done
            since = restarted

    def _auth(self) -> SignInOnDemand | None:
        """The OAuth flow for an HTTP endpoint, made once a sign-in is needed, when the session
        can ask a person to sign in and no `Authorization` header is given (kept across
        reconnects)."""
        handler = self.handlers.sign_in
        given = any(name.lower() == "authorization" for name in self.spec.headers)
        if self.spec.url is None or handler is None or given:
            return None
        if self._sign_in is None:
            from fleet_tui.envs.sign_in_on_demand import SignInOnDemand

            self._sign_in = SignInOnDemand(self.spec.url, handler, self.timeouts.sign_in)
        self._sign_in.handler = handler
        return self._sign_in

    async def _own(self) -> None:
        try:
            try:
                # an MCP endpoint's status names one of its own transports (never "websocket")
                await self._serve(cast(Transport, self.status.transport))
            except Exception as error:
                if not await self._answers_as_sse(error):
                    raise
                await self._serve("sse")
        except Exception as error:  # includes ExceptionGroup from the transport's task group
            self._failure = describe_error(error)
            if self.spec.argv and self.status.output:
                self._failure += f" (its stderr ends: {one_line(self.status.output[-1], 200)})"
            # A server we start that ends at once would end again: not retried.
            self._retryable = is_retryable(error) and not self.spec.argv
        finally:
            self._session = None
            self._connected.set()
            if not self._stop.is_set():
                self._set_state(EndpointState.DOWN, self._failure or "connection closed")

    async def _serve(self, transport: Transport) -> None:
        """Connect over `transport`, initialize, and stay connected until asked to stop."""
        from mcp.client.session import ClientSession

        from fleet_tui.envs.mcp_transports import ChildOutput, opened
        from fleet_tui.envs.result_screen import screened
        from fleet_tui.envs.stream_taps import ChangedRead

        output = ChildOutput(self.status.output, self.child_stderr, self.spec.program)
        tap = self.handlers.http_tap(self.url)
        async with (
            opened(
                self.spec, transport, output, tap, self._auth(), lambda: self.screens_listings
            ) as (read, write),
            ClientSession(
                *self.handlers.streams(self.url, ChangedRead(read, screened), write),
                **self.handlers.session_options(self.url),
            ) as session,
        ):
            await negotiate(session)
            self.status.server = server_info(session)
            self._session = session
            self._set_state(EndpointState.UP)
            self._connected.set()
            await self._park(session)

    async def _answers_as_sse(self, error: Exception) -> bool:
        """After streamable HTTP was refused, before any session: whether the URL answers like
        an SSE endpoint, which the endpoint then speaks (now and on reconnecting)."""
        from fleet_tui.envs.mcp_transports import serves_sse
        from fleet_tui.envs.oauth_callback import SignInFailed

        refused = not (self._connected.is_set() or is_connection_failure(error))
        signed_out = any(isinstance(leaf, SignInFailed) for leaf in leaf_errors(error))
        if self.status.transport != "http" or not refused or signed_out:
            return False
        if not await serves_sse(self.spec, self._auth()):
            return False
        self.status.transport = "sse"
        return True

    async def _park(self, session: ClientSession) -> None:
        """Wait for the stop event, pinging the server now and then to notice it dying."""
        while True:
            try:
                await asyncio.wait_for(self._stop.wait(), self.timeouts.ping)
                return
            except TimeoutError:
                try:
                    await asyncio.wait_for(session.send_ping(), self.timeouts.list)
                except TimeoutError:
                    raise TimeoutError(
                        f"no answer to a ping within {self.timeouts.list:g}s"
                    ) from None

    async def request(
        self,
        make: Callable[[ClientSession], Awaitable[T]],
        timeout: float | None,
        clock: ProgressClock | None = None,
    ) -> T:
        """Run one request on the session, failing fast if the connection dies meanwhile; past
        `timeout` seconds of silence (restarted by the `clock`'s progress) it is cancelled,
        which the SDK tells the server (`notifications/cancelled`).

        Raises EndpointDown (connection gone), NoAnswer (this request lost, connection fine),
        UnreadableReply (this reply unusable), TimeoutError, or what the request raised.
        """
        from fleet_tui.envs.mcp_http import unreadable_reply

        session, owner = self._session, self._owner
        if session is None or owner is None or owner.done() or self._stop.is_set():
            raise EndpointDown(self.status.error or "not connected")
        call = asyncio.ensure_future(make(session))
        try:
            done = await self._first_of({call, owner}, timeout, clock)
        finally:
            if not call.done():
                call.cancel()
                with contextlib.suppress(BaseException):
                    await call
        if call in done:
            try:
                return call.result()
            except Exception as error:
                if (problem := unreadable_reply(error)) is not None:
                    raise UnreadableReply(problem) from error
                if not is_connection_failure(error):
                    raise
                lost = NoAnswer(describe_error(error))
                if session is not self._session:  # reopened meanwhile: that connection is gone
                    raise EndpointDown(str(lost)) from error
                if await self._answers_ping(session):
                    raise lost from error
                # The connection is gone: its own failure, if it comes at once, says why.
                await asyncio.wait({owner}, timeout=OWNER_END_WAIT_S)
                if not owner.done():
                    self.mark_down(str(lost))
                raise EndpointDown(self._failure or str(lost)) from error
        if owner in done:
            raise EndpointDown(self._failure or "connection closed")
        raise TimeoutError(f"no answer within {timeout or 0:g}s")

    async def _answers_ping(self, session: ClientSession) -> bool:
        """Whether the connection still carries requests (a ping within a few seconds)."""
        if not self.is_up:
            return False
        try:
            await asyncio.wait_for(session.send_ping(), self.timeouts.lost_reply_ping)
        except Exception:
            return False
        return True

    @property
    def offers_logging(self) -> bool:
        """Whether the server declared the logging capability (it takes logging/setLevel)."""
        capabilities = self._session.server_capabilities if self._session else None
        return capabilities is not None and capabilities.logging is not None

    async def set_log_level(self, level: str) -> None:
        """Ask for log messages from `level` up: logging/setLevel (2026-07-28 has none)."""
        import warnings

        from mcp.shared.exceptions import MCPDeprecationWarning

        def send(session: ClientSession) -> Awaitable[object]:
            if is_modern(session.protocol_version):  # no logging/setLevel there
                return level_on_modern(session, level)
            with warnings.catch_warnings():  # raised when the coroutine is made, not awaited
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                return session.set_logging_level(level)  # type: ignore[arg-type]

        await self.request(send, self.timeouts.list)

    async def roots_changed(self) -> None:
        """Tell the server the client's roots changed (notifications/roots/list_changed).

        The SDK marks roots deprecated as of spec 2026-07-28; servers speaking the handshake
        versions still ask for them: its warning is silenced here, as for logging."""
        import warnings

        from mcp.shared.exceptions import MCPDeprecationWarning

        def send(session: ClientSession) -> Awaitable[None]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                return session.send_roots_list_changed()

        await self.request(send, self.timeouts.list)

    def mark_down(self, reason: str) -> None:
        self._failure = reason
        self._set_state(EndpointState.DOWN, reason)
        self._stop.set()

    async def list_tools(self) -> list[Any]:
        """All tools of this endpoint (`envs/tool_pages.py`: the SDK's objects or checked JSON),
        up to MAX_TOOL_PAGES pages. The SDK's parse is the only one until it rejects a listing
        (one tool it cannot read fails it all): over HTTP the tools are then listed again, and
        from then on, screened (`envs/mcp_http.py`: those the SDK rejects listed broken)."""
        from pydantic import ValidationError

        from fleet_tui.envs.mcp_http import TOO_LARGE_START
        from fleet_tui.envs.tool_pages import tool_page

        try:
            tools, self.listing_warning = await self.list_all(tool_page, "tools")
        except (ValidationError, UnreadableReply) as error:
            too_large = str(error).startswith(TOO_LARGE_START)
            if self.screens_listings or self.status.transport != "http" or too_large:
                raise
            self.screens_listings = True
            tools, self.listing_warning = await self.list_all(tool_page, "tools")
        self.status.tool_count = len(tools)
        return tools

    async def list_all(self, method: str | PageAsker, field: str) -> tuple[list[Any], str | None]:
        """Every item of a paginated list (pages from `session.<method>` or `method(session,
        ...)`, items in `page.<field>`), and a warning if it stopped at MAX_TOOL_PAGES pages."""

        async def list_pages(session: ClientSession) -> tuple[list[Any], str | None]:
            import mcp.types

            ask = getattr(session, method) if isinstance(method, str) else partial(method, session)
            items: list[Any] = []
            cursor: str | None = None
            for _ in range(MAX_TOOL_PAGES):
                params = mcp.types.PaginatedRequestParams(cursor=cursor) if cursor else None
                page = await ask(params=params)
                items.extend(getattr(page, field))
                cursor = page.next_cursor
                if not cursor:
                    return items, None
            return items, (
                f"stopped listing {field} after {MAX_TOOL_PAGES} pages: the server kept "
                "returning a next cursor"
            )

        return await self.request(list_pages, self.timeouts.list)

    def offers(self, feature: str) -> bool:
        """Whether the server declared `feature` ("resources", "prompts", "completions") in
        its capabilities when this connection opened."""
        session = self._session
        capabilities = session.server_capabilities if session is not None else None
        return capabilities is not None and getattr(capabilities, feature, None) is not None

    def can_subscribe(self) -> bool:
        """Whether the server declared resource subscriptions."""
        session = self._session
        capabilities = session.server_capabilities if session is not None else None
        resources = capabilities.resources if capabilities is not None else None
        return bool(resources is not None and resources.subscribe)

    async def close(self, *, final: bool = True) -> None:
        """Ask the owner task to leave its `async with`; cancel it if it does not in time, or
        at once while it is still connecting (waiting for the server, or for a person to sign
        in): no session is there to end."""
        owner, self._owner = self._owner, None
        self._stop.set()
        if owner is not None and not owner.done():
            grace = self.timeouts.close if self._connected.is_set() else 0.0
            try:
                await asyncio.wait_for(asyncio.shield(owner), grace)
            except TimeoutError:
                owner.cancel()
                with contextlib.suppress(BaseException):
                    await owner
            except Exception:
                pass
        if final:
            self._set_state(EndpointState.CLOSED, None)

    def _set_state(self, state: EndpointState, error: str | None = None) -> None:
        self.status.state = state
        self.status.error = error


def keep_mcp_logs_off_the_terminal() -> None:
    """The mcp client logs warnings (a failed session DELETE, ...) that Python would print on
    stderr when no logging is configured, over a TUI. A NullHandler keeps them off unless the
    application configures logging itself."""
    logger = logging.getLogger("mcp")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())


def is_connection_failure(error: BaseException) -> bool:
    """True when the error means the connection is gone (not that the server refused)."""
    import httpx2
    from mcp.shared.exceptions import MCPError
    from mcp.types import CONNECTION_CLOSED

    return any(
        (isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED)
        or isinstance(leaf, httpx2.TransportError | OSError)
        for leaf in leaf_errors(error)
    )
