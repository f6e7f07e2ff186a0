"""How one MCP endpoint is reached: streamable HTTP, SSE, or a child process over stdio.

`EndpointSpec` says where an endpoint is; `opened(spec, transport, output)` yields the
(read, write) streams a `ClientSession` takes. HTTP clients for MCP are built here and nowhere
else (`http_client`). An HTTP endpoint is tried as streamable HTTP first; when that is refused,
`serves_sse` tells whether the URL answers like an SSE endpoint (a GET opens an event stream),
and the endpoint then speaks SSE.

A stdio child's stderr is read line by line into `ChildOutput` (the last lines, bounded), and
echoed to a stream too when one is given (the headless commands give stderr). The child runs
under a supervisor that stops it, and every process it started, when the endpoint closes or
fleet-tui ends (`envs/mcp_stdio.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TextIO

from fleet_tui.envs.base import EnvError
from fleet_tui.text import clean

if TYPE_CHECKING:
    import httpx2

Transport = Literal["http", "sse", "stdio"]

STDIO_PREFIX = "stdio: "
"""How a stdio endpoint is named (results, status bar): this and its command line."""
OUTPUT_LINES = 200
"""How many of a child's last stderr lines are kept."""
OUTPUT_LINE_CHARS = 2000
"""Longer stderr lines are split into pieces of this many bytes."""
SSE_PROBE_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class EndpointSpec:
    """One MCP endpoint: an HTTP URL (with the headers to send) or a command run over stdio."""

    name: str
    """What results and the status bar call it: the URL, or `stdio: COMMAND ARGS`."""
    url: str | None = None
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    argv: tuple[str, ...] = ()

    @classmethod
    def http(cls, url: str, headers: dict[str, str] | None = None) -> EndpointSpec:
        return cls(name=url, url=url, headers=dict(headers or {}))

    @classmethod
    def stdio(cls, command_line: str) -> EndpointSpec:
        """A server started as `command_line` (split as a POSIX shell would, not run by one)."""
        try:
            argv = tuple(shlex.split(command_line))
        except ValueError as error:
            raise EnvError(f"cannot read the command {command_line!r}: {error}") from None
        if not argv:
            raise EnvError("an MCP server command is empty")
        return cls(name=STDIO_PREFIX + shlex.join(argv), argv=argv)

    @property
    def program(self) -> str:
        """The stdio server's program name (what its stderr lines are marked with)."""
        return os.path.basename(self.argv[0]) if self.argv else self.name

    @property
    def first_transport(self) -> Transport:
        return "stdio" if self.argv else "http"


class ChildOutput:
    """The last lines a child wrote on stderr, read by a thread; echoed to `echo` if given."""

    def __init__(self, lines: list[str], echo: TextIO | None = None, name: str = "") -> None:
        self.lines = lines
        self.echo = echo
        self.name = name
        self._reader: threading.Thread | None = None

    def start(self) -> TextIO:
        """A pipe for the child's stderr; a thread reads its other end until the child closes
        it."""
        read_fd, write_fd = os.pipe()
        self._reader = threading.Thread(
            target=self._read, args=(read_fd,), name=f"stderr {self.name}", daemon=True
        )
        self._reader.start()
        return os.fdopen(write_fd, "w")

    def _read(self, read_fd: int) -> None:
        with os.fdopen(read_fd, "rb") as pipe:
            # A line longer than the bound comes in pieces, each kept as a line of its own.
            for raw in iter(lambda: pipe.readline(OUTPUT_LINE_CHARS), b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self.lines.append(line)
                del self.lines[:-OUTPUT_LINES]
                if self.echo is not None:
                    with contextlib.suppress(OSError, ValueError):
                        self.echo.write(f"[{self.name}] {clean(line)}\n")
                        self.echo.flush()

    def wait(self, timeout: float) -> None:
        """Wait (up to `timeout`) for the reader to take the child's last lines."""
        if self._reader is not None:
            self._reader.join(timeout)


def http_client(
    url: str,
    headers: dict[str, str],
    timeout: httpx2.Timeout | None = None,
    *,
    guarded: bool = True,
    on_exchange: Callable[[Any], None] | None = None,
    auth: httpx2.Auth | None = None,
    event_limit: int | None = None,
    screens_listings: Callable[[], bool] = lambda: True,
) -> httpx2.AsyncClient:
    """An HTTP client for the MCP endpoint at `url`. `guarded`: replies are checked before the
    SDK reads them (`envs.mcp_http.GuardedTransport`, made for streamable HTTP), and each
    exchange is told to `on_exchange` (the protocol log). `auth`: the OAuth flow
    (`envs.sign_in_on_demand.SignInOnDemand`), which then hears a server ask for a sign-in.
    `event_limit`: each server-sent event over it is dropped (`envs.sse_cap`, made for the SSE
    transport). `screens_listings`: whether a guarded client screens a tools/list reply tool by
    tool (asked at each one)."""
    import httpx2

    from fleet_tui.envs.mcp_http import GuardedTransport, environment_proxy
    from fleet_tui.envs.mcp_preload import shared_ssl_context
    from fleet_tui.envs.sse_cap import EventCappedTransport

    transport: httpx2.AsyncBaseTransport = (
        GuardedTransport(
            url,
            on_exchange=on_exchange,
            passes_sign_in=auth is not None,
            screens_listings=screens_listings,
        )
        if guarded
        else httpx2.AsyncHTTPTransport(proxy=environment_proxy(url), verify=shared_ssl_context())
    )
    if event_limit is not None:
        transport = EventCappedTransport(transport, event_limit)
    # A response stream may stay quiet as long as the call's own limit allows (call_clock.py),
    # which the request bounds itself: no second, hidden cap on reading.
    timeout = timeout or httpx2.Timeout(30.0, read=None)
    return httpx2.AsyncClient(headers=headers, timeout=timeout, transport=transport, auth=auth)


@contextlib.asynccontextmanager
async def opened(
    spec: EndpointSpec,
    transport: Transport,
    output: ChildOutput | None = None,
    on_exchange: Callable[[Any], None] | None = None,
    auth: httpx2.Auth | None = None,
    screens_listings: Callable[[], bool] = lambda: True,
) -> AsyncIterator[tuple[Any, Any]]:
    """The (read, write) streams of a connection to `spec` over `transport` (`on_exchange`
    hears of each HTTP request a streamable-HTTP connection makes; `auth` signs HTTP requests
    in when the server asks; `screens_listings`: see `http_client`)."""
    if transport == "stdio":
        async with _stdio(spec, output or ChildOutput([])) as streams:
            yield streams
    elif transport == "sse":
        async with _sse(spec, auth) as streams:
            yield streams
    else:
        async with _streamable_http(spec, on_exchange, auth, screens_listings) as streams:
            yield streams


@contextlib.asynccontextmanager
async def _streamable_http(
    spec: EndpointSpec,
    on_exchange: Callable[[Any], None] | None,
    auth: httpx2.Auth | None,
    screens_listings: Callable[[], bool],
) -> AsyncIterator[tuple[Any, Any]]:
    from mcp.client.streamable_http import streamable_http_client

    from fleet_tui.envs.mcp_http import MAX_REPLY_BYTES

    assert spec.url is not None
    async with (
        http_client(
            spec.url,
            spec.headers,
            on_exchange=on_exchange,
            auth=auth,
            screens_listings=screens_listings,
        ) as client,
        streamable_http_client(
            spec.url, http_client=client, max_sse_event_size=MAX_REPLY_BYTES
        ) as (read, write),
    ):
        yield read, write


@contextlib.asynccontextmanager
async def _sse(spec: EndpointSpec, auth: httpx2.Auth | None) -> AsyncIterator[tuple[Any, Any]]:
    from mcp.client.sse import sse_client

    from fleet_tui.envs import sse_cap

    url = spec.url
    assert url is not None

    def make_client(
        headers: dict[str, str] | None = None, timeout: Any = None, auth: Any = None
    ) -> httpx2.AsyncClient:
        # Unguarded: an SSE endpoint answers a POST with 202 and replies on the stream.
        client = http_client(
            url,
            spec.headers | (headers or {}),
            timeout,
            guarded=False,
            event_limit=sse_cap.SSE_EVENT_LIMIT,
        )
        client.auth = auth
        return client

    async with sse_client(url, httpx_client_factory=make_client, auth=auth) as (read, write):
        yield read, write


@contextlib.asynccontextmanager
async def _stdio(spec: EndpointSpec, output: ChildOutput) -> AsyncIterator[tuple[Any, Any]]:
    from fleet_tui.envs.mcp_stdio import stdio_streams

    errlog = output.start()
    try:
        async with stdio_streams(spec.argv, errlog) as (read, write):
            errlog.close()  # the child holds its own copy: the reader ends when it exits
            yield read, write
    finally:
        errlog.close()
        await asyncio.to_thread(output.wait, 1.0)


async def serves_sse(spec: EndpointSpec, auth: httpx2.Auth | None = None) -> bool:
    """Whether the endpoint answers like an SSE endpoint: a GET opens an event stream (one
    that speaks streamable HTTP refuses a GET that names no session). `auth`: the endpoint's
    sign-in, for a server that asks for one."""
    import httpx2

    if spec.url is None:
        return False
    timeout = httpx2.Timeout(SSE_PROBE_TIMEOUT_S)
    try:
        async with (
            http_client(spec.url, spec.headers, timeout, guarded=False, auth=auth) as client,
            client.stream("GET", spec.url, headers={"Accept": "text/event-stream"}) as response,
        ):
            content_type = response.headers.get("content-type", "").lower()
            return response.status_code == 200 and content_type.startswith("text/event-stream")
    except httpx2.HTTPError:
        return False
