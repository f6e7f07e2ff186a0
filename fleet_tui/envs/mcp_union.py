"""Join N MCP endpoints into one set of tools; each call goes to the endpoint that owns it.

Connecting and listing are retried with backoff; a tool call never is, because it may have
reached the server. One endpoint's connection is `mcp_endpoint.McpEndpoint`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from fleet_tui.envs import mcp_preload
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
from fleet_tui.envs.call_clock import ProgressClock, chosen_limit, describe_limit
from fleet_tui.envs.mcp_catalog import McpCatalog
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.mcp_endpoint import (
    DEFAULT_TIMEOUTS,
    EndpointDown,
    McpEndpoint,
    NoAnswer,
    Timeouts,
    UnreadableReply,
    keep_mcp_logs_off_the_terminal,
)
from fleet_tui.envs.mcp_transports import EndpointSpec
from fleet_tui.envs.pages_to_visit import pages_to_visit, refused_text
from fleet_tui.envs.results import error_result, tool_result_from_mcp
from fleet_tui.envs.tool_call import tool_call
from fleet_tui.envs.tool_tasks import runs_as_task, task_tool_call
from fleet_tui.envs.tool_union import ToolUnion, endpoint_labels, union_of
from fleet_tui.text import describe_error, visible

if TYPE_CHECKING:
    from fleet_tui.envs.targets import McpTarget

T = TypeVar("T")


class McpUnion:
    """N MCP endpoints seen as one set of tools; each call goes to the endpoint that owns it."""

    def __init__(
        self,
        urls: Sequence[str],
        *,
        stdio: Sequence[str] = (),
        headers: dict[str, str] | None = None,
        handlers: ClientHandlers | None = None,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        attempts: int = 3,
        backoff_s: float = 0.25,
        child_stderr: TextIO | None = None,
        qualify_clashes: bool = False,
    ) -> None:
        """`urls` are HTTP endpoints (sent `headers`), `stdio` commands of servers to run; a
        stdio server's stderr is kept in its endpoint's status and echoed to `child_stderr`.
        `qualify_clashes`: a tool name several endpoints offer is reached as `LABEL/NAME` on
        each (envs/tool_union.py); else the first endpoint wins it."""
        specs = [EndpointSpec.http(url, headers) for url in urls]
        specs += [EndpointSpec.stdio(line) for line in stdio]
        if not specs:
            raise EnvError("no MCP endpoint to connect to")
        keep_mcp_logs_off_the_terminal()
        self.handlers = handlers or ClientHandlers()
        self._endpoints = [
            McpEndpoint(spec, timeouts, self.handlers, child_stderr) for spec in specs
        ]
        self.timeouts = timeouts
        self.catalog = McpCatalog(self._endpoints, timeouts)
        """The endpoints' resources, templates and prompts."""
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.qualify_clashes = qualify_clashes
        self._tools: list[Tool] | None = None
        self._union = ToolUnion()
        self._warnings: list[str] = []

    def listen(self, handlers: ClientHandlers) -> None:
        """Use `handlers` for what servers send on their own, from the next (re)connect on."""
        self.handlers = handlers
        for endpoint in self._endpoints:
            endpoint.handlers = handlers

    # -- connecting ----------------------------------------------------------------------------

    async def connect(self, progress: Progress | None = None, *, keep_open: bool = False) -> None:
        """Open every endpoint in parallel (with `keep_open`, only those not up: the others
        keep their connections). Fails only if none connects."""
        await self._open(self._endpoints, progress, keep_open=keep_open)

    async def reconnect(self, progress: Progress | None = None) -> None:
        """Reopen the endpoints that are down (saying so as connecting does), then list tools
        again."""
        await self.connect(progress, keep_open=True)
        await self.list_tools(refresh=True)

    async def _open(
        self, endpoints: list[McpEndpoint], progress: Progress | None, *, keep_open: bool = False
    ) -> None:
        started = time.monotonic()
        await mcp_preload.loaded()
        names = ", ".join(endpoint.url for endpoint in endpoints)
        say(
            progress,
            f"Connecting to MCP {'endpoint' if len(endpoints) == 1 else 'endpoints'} {names}",
        )
        opened = [e for e in endpoints if not (keep_open and e.is_up)]
        await asyncio.gather(*(self._open_with_retry(endpoint) for endpoint in opened))
        await self._restore(opened, progress)
        failed = [endpoint for endpoint in endpoints if not endpoint.is_up]
        if not any(endpoint.is_up for endpoint in self._endpoints):
            raise EnvError("could not connect to any MCP endpoint: " + failures(failed))
        self._warnings = [f"MCP endpoint failed: {failures([e])}" for e in failed]
        for endpoint in endpoints:
            if endpoint.is_up and endpoint.status.transport == "sse":
                say(progress, f"{endpoint.url} answered as an SSE endpoint: speaking SSE to it")
        up = len(endpoints) - len(failed)
        say(
            progress,
            f"Connected {up}/{len(endpoints)} MCP endpoints in {time.monotonic() - started:.1f}s",
        )

    async def _restore(self, opened: list[McpEndpoint], progress: Progress | None) -> None:
        """Subscribe the reopened endpoints again to what they were subscribed to, and say
        what each restored (with the log level it took on opening) in the log and progress."""
        said = await self.catalog.resubscribe(opened)
        for endpoint in opened:
            level = endpoint.log_level_taken
            restored = ([f"log level {level} sent again"] if level else []) + said.get(endpoint, [])
            if restored and endpoint.is_up and endpoint.opened > 1:
                line = f"{endpoint.url}: restored on connecting: {'; '.join(restored)}"
                self.handlers.note(endpoint.url, line)
                say(progress, line)

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

    @property
    def conflicts(self) -> list[ToolConflict]:
        """Names two endpoints offer with different schemas, the first one kept (a union
        that does not qualify clashes)."""
        return self._union.conflicts

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
        labels = endpoint_labels(self._endpoints) if self.qualify_clashes else None
        self._union = union_of(answered, labels)
        self._tools = self._union.tools
        self._warnings = (
            [f"MCP endpoint failed: {listing_failure(e, error)}" for e, error in failed]
            + [
                f"MCP endpoint {e.url}: {warning}"
                for e, _ in answered
                for warning in (e.listing_warning, e.sign_in_warning)
                if warning
            ]
            + [
                f"tool {c.name!r} is offered by {c.kept_endpoint} and {c.other_endpoint} with "
                f"different schemas; using the one from {c.kept_endpoint}"
                for c in self._union.conflicts
            ]
        )
        return self._tools

    async def _list_endpoint(self, endpoint: McpEndpoint) -> list[Any]:
        """List one endpoint that is up (a down one waits for `reconnect`), reopening it once
        if its connection drops meanwhile."""
        if not endpoint.is_up:
            raise EndpointDown(endpoint.status.error or "not connected")

        async def attempt() -> list[Any]:
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
        owner = self._union.owners.get(name)
        if owner is None and name in self._union.qualified:
            names = ", ".join(map(visible, self._union.qualified[name]))
            raise EnvError(f"tool {name!r} is offered by several endpoints: call one of {names}")
        if owner is None:
            known = ", ".join(sorted(visible(tool.name) for tool in tools)) or "none"
            raise EnvError(f"unknown tool {name!r} (available: {known})")
        endpoint = owner.endpoint
        tool = next(tool for tool in tools if tool.name == name)
        if tool.broken is not None:
            raise EnvError(
                f"tool {name!r} is broken and was not called: the server lists it wrongly "
                f"({visible(tool.broken)})"
            )
        started = time.monotonic()
        limit = chosen_limit(self.timeouts.call)
        clock = ProgressClock()
        try:
            progress = self.handlers.progress_callback(endpoint.url, name, clock.heard)
            send = (
                task_tool_call(
                    owner.server_name,
                    arguments,
                    progress,
                    self.handlers.task_seen(endpoint.url, name),
                )
                if runs_as_task(tool.task_support)
                else tool_call(owner.server_name, arguments, progress)
            )
            result = await endpoint.request(send, limit, clock)
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
                f"tool {name!r} was cancelled after {describe_limit(limit)} (the call's time "
                "limit, which each progress report restarts); the server was told to stop, and "
                "it may have done part of the work (not retried)"
            ) from None
        except MCPError as error:  # -32042 also lists pages to open: its text names them
            pages = pages_to_visit(error.code, error.data)
            return error_result(
                refused_text(error.message, pages),
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

    # -- logging -------------------------------------------------------------------------------

    async def set_log_level(self, level: str) -> list[str]:
        """Ask every connected endpoint that offers logging for log messages from `level` up
        (and the ones that connect later); one line per endpoint that could not take it."""
        self.handlers.log_level = level
        up = [endpoint for endpoint in self._endpoints if endpoint.is_up]
        problems = [f"{e.url} does not offer logging" for e in up if not e.offers_logging]
        asked = [endpoint for endpoint in up if endpoint.offers_logging]
        outcomes = await asyncio.gather(
            *(endpoint.set_log_level(level) for endpoint in asked), return_exceptions=True
        )
        problems += [
            f"{endpoint.url}: {describe_error(outcome)}"
            for endpoint, outcome in zip(asked, outcomes, strict=True)
            if isinstance(outcome, BaseException)
        ]
        return problems

    async def roots_changed(self) -> list[str]:
        """Tell every connected endpoint the roots changed; one line per one that failed."""
        up = [endpoint for endpoint in self._endpoints if endpoint.is_up]
        outcomes = await asyncio.gather(
            *(endpoint.roots_changed() for endpoint in up), return_exceptions=True
        )
        return [
            f"{endpoint.url}: {describe_error(outcome)}"
            for endpoint, outcome in zip(up, outcomes, strict=True)
            if isinstance(outcome, BaseException)
        ]

    # -- state ---------------------------------------------------------------------------------

    def endpoints(self) -> list[EndpointStatus]:
        return [endpoint.status.model_copy() for endpoint in self._endpoints]

    def warnings(self) -> list[str]:
        return list(self._warnings)

    async def close(self) -> None:
        await asyncio.gather(*(endpoint.close() for endpoint in self._endpoints))


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
    """An Env over plain MCP endpoints (an `McpTarget`): tools and calls, no reset."""

    def __init__(
        self,
        target: McpTarget,
        *,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        child_stderr: TextIO | None = None,
    ) -> None:
        self.info = EnvInfo(kind="mcp")
        self.union = McpUnion(
            target.urls,
            stdio=target.stdio,
            headers=target.headers,
            timeouts=timeouts,
            child_stderr=child_stderr,
            qualify_clashes=True,
        )

    def listen(self, handlers: ClientHandlers) -> None:
        self.union.listen(handlers)

    def catalog(self) -> McpCatalog:
        return self.union.catalog

    async def connect(self, progress: Progress | None = None) -> None:
        await self.union.connect(progress)
        await self.union.list_tools()

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        return await self.union.list_tools(refresh)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        return await self.union.call_tool(name, arguments)

    async def reset(
        self, seed: int | None = None, *, options: dict[str, Any] | None = None
    ) -> ResetResult:
        raise EnvError("plain MCP endpoints have no reset: use a Fleet env or an OpenEnv server")

    async def reconnect(self, progress: Progress | None = None) -> None:
        await self.union.reconnect(progress)

    async def set_log_level(self, level: str) -> list[str]:
        return await self.union.set_log_level(level)

    async def roots_changed(self) -> list[str]:
        return await self.union.roots_changed()

    def endpoints(self) -> list[EndpointStatus]:
        return self.union.endpoints()

    def warnings(self) -> list[str]:
        return self.union.warnings()

    async def close(self) -> None:
        await self.union.close()
