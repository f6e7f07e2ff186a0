"""Join N MCP streamable-HTTP endpoints into one set of tools.

Each endpoint's connection is owned by one long-lived asyncio task: it enters the transport and
the ClientSession, signals "connected", parks until asked to stop, and leaves the `async with`
itself (anyio cancel scopes must be exited by the task that entered them). Listing and calls run
in whichever task asks, so this works the same under `asyncio.run` and inside a Textual app.

Connecting and listing are retried with backoff; a tool call never is, because it may have
reached the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from fleet_tui.envs.base import (
    EndpointState,
    EndpointStatus,
    EnvError,
    EnvInfo,
    Progress,
    ResetResult,
    Tool,
    ToolConflict,
    ToolResult,
)
from fleet_tui.envs.errors import is_retryable
from fleet_tui.envs.results import error_result, tool_from_mcp, tool_result_from_mcp
from fleet_tui.envs.tool_call import tool_call
from fleet_tui.text import describe_error, leaf_errors, visible

if TYPE_CHECKING:
    import mcp.types
    from mcp.client.session import ClientSession

    from fleet_tui.envs.targets import Target

T = TypeVar("T")

MAX_TOOL_PAGES = 100
"""How many tools/list pages one listing follows before it stops (a server may never stop
returning a next cursor)."""


@dataclass(frozen=True)
class Timeouts:
    """Seconds allowed for each kind of operation."""

    connect: float = 20.0
    list: float = 30.0
    call: float = 300.0
    close: float = 5.0
    ping: float | None = 15.0
    """How often an idle connection is checked, so a dead server shows as down (None: never)."""
    lost_reply_ping: float = 5.0
    """After a request ends without an answer: how long a ping may take to show that the
    connection is fine and only that reply was lost."""


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

    def __init__(self, url: str, headers: dict[str, str], timeouts: Timeouts) -> None:
        self.url = url
        self.headers = headers
        self.timeouts = timeouts
        self.status = EndpointStatus(url=url)
        self._session: ClientSession | None = None
        self._owner: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._stop = asyncio.Event()
        self._failure: str | None = None
        self._retryable = True
        self.listing_warning: str | None = None
        """What was wrong with the last tools/list that still gave tools, if anything."""

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
            await asyncio.wait_for(self._connected.wait(), self.timeouts.connect)
        except TimeoutError:  # not retried: a silent server would cost the timeout again
            self._failure = f"no answer within {self.timeouts.connect:g}s"
            self._retryable = False
        except BaseException:
            await self.close()
            raise
        if not self.is_up:
            failure = self._failure or "connection closed"
            await self.close(final=False)
            self._set_state(EndpointState.DOWN, failure)
            raise EndpointDown(failure, retryable=self._retryable)

    async def _own(self) -> None:
        import httpx2
        from mcp.client.session import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        from fleet_tui.envs.mcp_http import MAX_REPLY_BYTES, GuardedTransport

        # The mcp transport's own defaults: a response stream may stay quiet for minutes.
        timeout = httpx2.Timeout(30.0, read=300.0)
        try:
            async with (
                httpx2.AsyncClient(
                    headers=self.headers, timeout=timeout, transport=GuardedTransport(self.url)
                ) as http_client,
                streamable_http_client(
                    self.url, http_client=http_client, max_sse_event_size=MAX_REPLY_BYTES
                ) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                self._session = session
                self._set_state(EndpointState.UP)
                self._connected.set()
                await self._park(session)
        except Exception as error:  # includes ExceptionGroup from the transport's task group
            self._failure = describe_error(error)
            self._retryable = is_retryable(error)
        finally:
            self._session = None
            self._connected.set()
            if not self._stop.is_set():
                self._set_state(EndpointState.DOWN, self._failure or "connection closed")

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

    async def request(self, make: Callable[[ClientSession], Awaitable[T]], timeout: float) -> T:
        """Run one request on the session, failing fast if the connection dies meanwhile.

        Raises EndpointDown (connection gone), NoAnswer (this request lost, connection fine),
        UnreadableReply (this reply unusable), TimeoutError, or what the request raised.
        """
        from fleet_tui.envs.mcp_http import unreadable_reply

        session, owner = self._session, self._owner
        if session is None or owner is None or owner.done() or self._stop.is_set():
            raise EndpointDown(self.status.error or "not connected")
        call = asyncio.ensure_future(make(session))
        try:
            done, _ = await asyncio.wait(
                {call, owner}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
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
                self.mark_down(str(lost))
                raise EndpointDown(self.status.error or "connection closed") from error
        if owner in done:
            raise EndpointDown(self._failure or "connection closed")
        raise TimeoutError(f"no answer within {timeout:g}s")

    async def _answers_ping(self, session: ClientSession) -> bool:
        """Whether the connection still carries requests (a ping within a few seconds)."""
        if not self.is_up:
            return False
        try:
            await asyncio.wait_for(session.send_ping(), self.timeouts.lost_reply_ping)
        except Exception:
            return False
        return True

    def mark_down(self, reason: str) -> None:
        self._failure = reason
        self._set_state(EndpointState.DOWN, reason)
        self._stop.set()

    async def list_tools(self) -> list[mcp.types.Tool]:
        """All tools of this endpoint, following pagination cursors up to MAX_TOOL_PAGES pages."""

        async def list_all(session: ClientSession) -> list[mcp.types.Tool]:
            import mcp.types

            tools: list[mcp.types.Tool] = []
            cursor: str | None = None
            for _ in range(MAX_TOOL_PAGES):
                params = mcp.types.PaginatedRequestParams(cursor=cursor) if cursor else None
                page = await session.list_tools(params=params)
                tools.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    self.listing_warning = None
                    return tools
            self.listing_warning = (
                f"stopped listing tools after {MAX_TOOL_PAGES} pages: the server kept returning "
                "a next cursor"
            )
            return tools

        tools = await self.request(list_all, self.timeouts.list)
        self.status.tool_count = len(tools)
        return tools

    async def close(self, *, final: bool = True) -> None:
        """Ask the owner task to leave its `async with`; cancel it if it does not in time."""
        owner, self._owner = self._owner, None
        self._stop.set()
        if owner is not None and not owner.done():
            try:
                await asyncio.wait_for(asyncio.shield(owner), self.timeouts.close)
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


class McpUnion:
    """N MCP endpoints seen as one set of tools; each call goes to the endpoint that owns it."""

    def __init__(
        self,
        urls: Sequence[str],
        *,
        headers: dict[str, str] | None = None,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        attempts: int = 3,
        backoff_s: float = 0.25,
    ) -> None:
        if not urls:
            raise EnvError("no MCP endpoint to connect to")
        keep_mcp_logs_off_the_terminal()
        self._endpoints = [McpEndpoint(url, dict(headers or {}), timeouts) for url in urls]
        self.timeouts = timeouts
        self.attempts = attempts
        self.backoff_s = backoff_s
        self._tools: list[Tool] | None = None
        self._owner_of: dict[str, McpEndpoint] = {}
        self.conflicts: list[ToolConflict] = []
        self._warnings: list[str] = []

    # -- connecting ----------------------------------------------------------------------------

    async def connect(self, progress: Progress | None = None) -> None:
        """Open every endpoint in parallel. Fails only if none connects."""
        await self._open(self._endpoints, progress)

    async def reconnect(self, progress: Progress | None = None) -> None:
        """Reopen the endpoints that are down, then list tools again."""
        down = [endpoint for endpoint in self._endpoints if not endpoint.is_up]
        if down:
            await self._open(down, progress)
        await self.list_tools(refresh=True)

    async def _open(self, endpoints: list[McpEndpoint], progress: Progress | None) -> None:
        started = time.monotonic()
        names = ", ".join(endpoint.url for endpoint in endpoints)
        say(
            progress,
            f"Connecting to MCP {'endpoint' if len(endpoints) == 1 else 'endpoints'} {names}",
        )
        await asyncio.gather(*(self._open_with_retry(endpoint) for endpoint in endpoints))
        failed = [endpoint for endpoint in endpoints if not endpoint.is_up]
        if not any(endpoint.is_up for endpoint in self._endpoints):
            raise EnvError("could not connect to any MCP endpoint: " + failures(failed))
        self._warnings = [f"MCP endpoint failed: {failures([e])}" for e in failed]
        up = len(endpoints) - len(failed)
        say(
            progress,
            f"Connected {up}/{len(endpoints)} MCP endpoints in {time.monotonic() - started:.1f}s",
        )

    async def _open_with_retry(self, endpoint: McpEndpoint) -> None:
        with contextlib.suppress(EndpointDown):
            await self._retrying(endpoint.open)

    async def _retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run an operation that cannot have changed anything on the server, with backoff."""
        for attempt in range(self.attempts):
            try:
                return await operation()
            except (EndpointDown, NoAnswer, TimeoutError) as error:
                retryable = getattr(error, "retryable", True)
                if attempt + 1 >= self.attempts or not retryable:
                    raise
            await asyncio.sleep(self.backoff_s * 2**attempt)
        raise AssertionError("unreachable: the last attempt returns or raises")

    # -- listing -------------------------------------------------------------------------------

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        """The union of every connected endpoint's tools, first endpoint winning a name."""
        if self._tools is not None and not refresh:
            return self._tools
        listed = await asyncio.gather(
            *(self._list_endpoint(endpoint) for endpoint in self._endpoints),
            return_exceptions=True,
        )
        answered = [
            (endpoint, tools)
            for endpoint, tools in zip(self._endpoints, listed, strict=True)
            if not isinstance(tools, BaseException)
        ]
        failed = [
            (endpoint, error)
            for endpoint, error in zip(self._endpoints, listed, strict=True)
            if isinstance(error, BaseException)
        ]
        if not answered:
            raise EnvError(
                "no MCP endpoint answered tools/list: "
                + "; ".join(listing_failure(endpoint, error) for endpoint, error in failed)
            )
        self._tools, self._owner_of, self.conflicts = union_of(answered)
        self._warnings = (
            [f"MCP endpoint failed: {listing_failure(e, error)}" for e, error in failed]
            + [
                f"MCP endpoint {e.url}: {e.listing_warning}"
                for e, _ in answered
                if e.listing_warning
            ]
            + [
                f"tool {c.name!r} is offered by {c.kept_endpoint} and {c.other_endpoint} with "
                f"different schemas; using the one from {c.kept_endpoint}"
                for c in self.conflicts
            ]
        )
        return self._tools

    async def _list_endpoint(self, endpoint: McpEndpoint) -> list[mcp.types.Tool]:
        """List one endpoint that is up (a down one waits for `reconnect`), reopening it once
        if its connection drops meanwhile."""
        if not endpoint.is_up:
            raise EndpointDown(endpoint.status.error or "not connected")

        async def attempt() -> list[mcp.types.Tool]:
            if not endpoint.is_up:
                await endpoint.open()
            return await endpoint.list_tools()

        try:
            return await self._retrying(attempt)
        except NoAnswer as error:  # every attempt lost: the endpoint cannot give its tools
            endpoint.mark_down(f"its tool list never arrived ({error})")
            raise EndpointDown(endpoint.status.error or str(error)) from error
        except UnreadableReply:  # that listing failed; the connection still carries calls
            raise
        except Exception as error:
            if endpoint.status.state is not EndpointState.DOWN:
                endpoint.mark_down(describe_error(error))
            raise

    # -- calling -------------------------------------------------------------------------------

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Call a tool on the endpoint that owns it. Never retried.

        A tool-level failure (or a JSON-RPC error answer) is a result with `is_error`; an
        unknown tool, a dead endpoint or a timeout raises EnvError.
        """
        from mcp.shared.exceptions import MCPError

        tools = await self.list_tools()
        endpoint = self._owner_of.get(name)
        if endpoint is None:
            known = ", ".join(sorted(visible(tool.name) for tool in tools)) or "none"
            raise EnvError(f"unknown tool {name!r} (available: {known})")
        tool = next(tool for tool in tools if tool.name == name)
        if tool.broken is not None:
            raise EnvError(
                f"tool {name!r} is broken and was not called: the server lists it wrongly "
                f"({visible(tool.broken)})"
            )
        started = time.monotonic()
        try:
            result = await endpoint.request(tool_call(name, arguments), self.timeouts.call)
        except EndpointDown as error:
            raise EnvError(
                f"MCP endpoint {endpoint.url} is down ({error}); the call to {name!r} was not "
                "retried: reconnect and try again"
            ) from None
        except NoAnswer as error:
            return error_result(
                f"the call to {visible(name)} ended without an answer ({error}), on a "
                "connection that still answers: the reply was lost, most likely because the "
                "server failed while sending it (its log says why). The tool may have run "
                "(not retried).",
                "no answer",
                endpoint=endpoint.url,
                latency_s=error.at - started,
            )
        except UnreadableReply as error:
            return error_result(
                f"the reply to {visible(name)} could not be used: {error} (the tool may have "
                "run; not retried)",
                "unreadable reply",
                endpoint=endpoint.url,
                latency_s=time.monotonic() - started,
            )
        except TimeoutError:
            raise EnvError(
                f"tool {name!r} gave no answer within {self.timeouts.call:g}s; it may still have "
                "run on the server (not retried)"
            ) from None
        except MCPError as error:
            return error_result(
                error.message,
                f"mcp error {error.code}",
                endpoint=endpoint.url,
                latency_s=time.monotonic() - started,
                raw={"error": {"code": error.code, "message": error.message, "data": error.data}},
            )
        except Exception as error:  # the answer arrived but the client could not accept it
            return error_result(
                describe_error(error),
                "client error",
                endpoint=endpoint.url,
                latency_s=time.monotonic() - started,
            )
        return tool_result_from_mcp(
            result, endpoint=endpoint.url, latency_s=time.monotonic() - started
        )

    # -- state ---------------------------------------------------------------------------------

    def endpoints(self) -> list[EndpointStatus]:
        return [endpoint.status.model_copy() for endpoint in self._endpoints]

    def warnings(self) -> list[str]:
        return list(self._warnings)

    async def close(self) -> None:
        await asyncio.gather(*(endpoint.close() for endpoint in self._endpoints))


def union_of(
    answered: list[tuple[McpEndpoint, list[mcp.types.Tool]]],
) -> tuple[list[Tool], dict[str, McpEndpoint], list[ToolConflict]]:
    """Merge per-endpoint listings by name: first endpoint wins, different schemas conflict."""
    tools: dict[str, Tool] = {}
    owners: dict[str, McpEndpoint] = {}
    conflicts: list[ToolConflict] = []
    for endpoint, listing in answered:
        for item in listing:
            tool = tool_from_mcp(item, endpoint.url)
            kept = tools.get(tool.name)
            if kept is None:
                tools[tool.name] = tool
                owners[tool.name] = endpoint
            elif kept.input_schema != tool.input_schema:
                conflicts.append(
                    ToolConflict(
                        name=tool.name, kept_endpoint=kept.endpoint, other_endpoint=endpoint.url
                    )
                )
    return list(tools.values()), owners, conflicts


def failures(endpoints: list[McpEndpoint]) -> str:
    return "; ".join(f"{e.url}: {e.status.error or 'failed'}" for e in endpoints)


def listing_failure(endpoint: McpEndpoint, error: BaseException) -> str:
    """Why one endpoint gave no tools: its connection failed, or (still up) its reply did."""
    if isinstance(error, UnreadableReply):
        return f"{endpoint.url}: its tool list could not be used: {error} (still connected)"
    return failures([endpoint])


def say(progress: Progress | None, line: str) -> None:
    if progress is not None:
        progress(line)


class McpEnv:
    """An Env over plain MCP endpoints (`--mcp URL ...`): tools and calls, no reset."""

    def __init__(self, target: Target, *, timeouts: Timeouts = DEFAULT_TIMEOUTS) -> None:
        self.info = EnvInfo(kind="mcp")
        self.union = McpUnion(target.mcp, timeouts=timeouts)

    async def connect(self, progress: Progress | None = None) -> None:
        await self.union.connect(progress)
        await self.union.list_tools()

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        return await self.union.list_tools(refresh)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        return await self.union.call_tool(name, arguments)

    async def reset(self, seed: int | None = None) -> ResetResult:
        raise EnvError("plain MCP endpoints have no reset: use a Fleet env or an OpenEnv server")

    async def reconnect(self, progress: Progress | None = None) -> None:
        await self.union.reconnect(progress)

    def endpoints(self) -> list[EndpointStatus]:
        return self.union.endpoints()

    def warnings(self) -> list[str]:
        return self.union.warnings()

    async def close(self) -> None:
        await self.union.close()
