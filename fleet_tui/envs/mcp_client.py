"""What the MCP client does with what a server sends besides replies: `ClientHandlers`.

A server may send notifications (log messages, progress, list changes, resource updates) and
requests of its own (sampling, elicitation, roots, sign-in). Whoever sets up a session (the
controller, a headless command's set-up) makes one `ClientHandlers`, answering what servers ask
with the port it was given (`answer_with`, envs/server_requests.py), and gives it to an env
that hears servers (`envs.capabilities.HearsServer`); every MCP endpoint that env opens turns
it into the `ClientSession`'s callbacks.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fleet_tui.envs.mcp_callbacks import server_request_callbacks
from fleet_tui.envs.server_requests import (
    AnswersElicitation,
    AnswersSampling,
    AnswersServers,
    ElicitHandler,
    OffersRoots,
    SampleHandler,
    SignInHandler,
    SignsIn,
)
from fleet_tui.envs.tool_call import Progress

NotificationHandler = Callable[[str, Any], None]
"""Called with (endpoint URL, the server's notification as an `mcp.types` model)."""

ProgressHandler = Callable[[str, str, float, float | None, str | None], None]
"""Called with (endpoint URL, tool name, progress, total, message) for a running tools/call."""

TaskHandler = Callable[[str, str, Any], None]
"""Called with (endpoint URL, tool name, the `mcp.types.Task`) each time a tool call run as an
MCP task is created or changes status."""

MessageTap = Callable[[str, str, Any], None]
"""Called with (endpoint URL, "out" or "in", the `SessionMessage` or transport exception) for
every JSON-RPC message the session sends or receives."""

HttpTap = Callable[[str, Any], None]
"""Called with (endpoint URL, an `envs.traffic.HttpExchange`) for every HTTP request."""

CLIENT_LOGGER = "fleet-tui"
"""The logger name of the log messages the client itself adds (see `ClientHandlers.note`)."""


@dataclass
class ClientHandlers:
    """Callbacks for what servers send on their own; unset ones are not declared to servers."""

    on_notification: list[NotificationHandler] = field(default_factory=list)
    """Each is called for every notification, in order."""
    elicit: ElicitHandler | None = None
    """Answers a server's `elicitation/create` (envs/server_requests.py)."""
    sample: SampleHandler | None = None
    """Answers a server's `sampling/createMessage` with the reply's text, or None to decline."""
    roots: Callable[[], list[str]] | None = None
    """The root directories (as paths or file:// URIs) offered to servers that ask."""
    sign_in: SignInHandler | None = None
    """Shows the person where to sign in when an HTTP server asks for OAuth (unset: no
    sign-in, the server's 401 is the error)."""
    on_progress: list[ProgressHandler] = field(default_factory=list)
    """Each is called for every progress notification of a tool call."""
    on_task: list[TaskHandler] = field(default_factory=list)
    """Each is called for every status a tool call run as an MCP task is seen in."""
    log_level: str | None = None
    """Sent with logging/setLevel to each server that offers logging, once connected; on
    protocol 2026-07-28, with each request instead (`envs/protocol_revision.py`)."""
    on_message: list[MessageTap] = field(default_factory=list)
    """Each sees every JSON-RPC message in and out (the protocol log)."""
    on_http: list[HttpTap] = field(default_factory=list)
    """Each sees every HTTP request to an HTTP endpoint, with its status and timing."""

    def note(self, url: str, line: str) -> None:
        """Tell the listeners what the client itself did on the endpoint at `url` (what it
        restored on reconnecting), as a log message of the logger CLIENT_LOGGER, so it shows
        in the servers' log beside what they said."""
        import mcp.types

        params = mcp.types.LoggingMessageNotificationParams(
            level="notice", logger=CLIENT_LOGGER, data=line
        )
        for handler in self.on_notification:
            handler(url, mcp.types.LoggingMessageNotification(params=params))

    def answer_with(self, requests: AnswersServers | None) -> ClientHandlers:
        """These handlers, answering what servers ask with the methods `requests` has (what it
        lacks is not declared to servers)."""
        self.elicit = requests.elicit if isinstance(requests, AnswersElicitation) else None
        self.sample = requests.sample if isinstance(requests, AnswersSampling) else None
        self.roots = requests.roots if isinstance(requests, OffersRoots) else None
        self.sign_in = requests.sign_in if isinstance(requests, SignsIn) else None
        return self

    def task_seen(self, url: str, tool: str) -> Callable[[Any], None]:
        """What tells the `on_task` handlers of each status of one tool call run as a task."""

        def seen(task: Any) -> None:
            for handler in self.on_task:
                handler(url, tool, task)

        return seen

    def progress_callback(
        self, url: str, tool: str, heard: Callable[[], None] | None = None
    ) -> Progress:
        """The progress callback for one tools/call (given always, so a progressToken is sent);
        `heard` is told of each report first (it restarts the call's clock)."""

        async def report(progress: float, total: float | None, message: str | None) -> None:
            if heard is not None:
                heard()
            for handler in self.on_progress:
                handler(url, tool, progress, total, message)

        return report

    def streams(self, url: str, read: Any, write: Any) -> tuple[Any, Any]:
        """A transport's (read, write) streams, tapped for `on_message`; a received result of
        very many content blocks has its text blocks merged first (envs/block_merge.py), and
        the requests too deep for the SDK to read are answered (envs/deep_requests.py)."""
        from fleet_tui.envs.block_merge import merge_reply_blocks
        from fleet_tui.envs.deep_requests import DeepRequests
        from fleet_tui.envs.stream_taps import TappedRead, TappedWrite

        def tap(direction: str, item: Any) -> None:
            if direction == "in":
                merge_reply_blocks(item)
            for handler in self.on_message:
                handler(url, direction, item)

        read, write = TappedRead(read, tap), TappedWrite(write, tap)
        return DeepRequests(read, write, url, self.elicit), write

    def http_tap(self, url: str) -> Callable[[Any], None] | None:
        """What the HTTP transport reports each exchange to (None: nobody listens)."""
        if not self.on_http:
            return None

        def tap(exchange: Any) -> None:
            for handler in self.on_http:
                handler(url, exchange)

        return tap

    def session_options(self, url: str) -> dict[str, Any]:
        """Keyword arguments for `mcp.client.session.ClientSession` on the endpoint at `url`;
        the client introduces itself as fleet-tui, not as the SDK's default."""
        import mcp.types

        from fleet_tui import __version__

        options: dict[str, Any] = {
            "client_info": mcp.types.Implementation(name="fleet-tui", version=__version__)
        }
        if self.log_level is not None:  # only 2026-07-28 sends it, with each request
            options["log_level"] = self.log_level
        if self.on_notification:
            options["message_handler"] = self._message_handler(url)
        roots = self._current_roots if self.roots is not None else None
        options.update(server_request_callbacks(url, self.elicit, self.sample, roots))
        return options

    def _current_roots(self) -> list[str]:
        """The roots as `roots` gives them now (it may be replaced while connected)."""
        return self.roots() if self.roots is not None else []

    def _message_handler(self, url: str) -> Callable[[Any], Awaitable[None]]:
        async def handle(message: Any) -> None:
            if isinstance(message, Exception):  # a transport fault: the endpoint reports those
                return
            for handler in self.on_notification:
                handler(url, message)

        return handle
