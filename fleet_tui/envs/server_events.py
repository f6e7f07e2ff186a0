"""What servers say on their own, as typed events: log messages, progress of a tool call,
changes to their lists of tools, resources or prompts, and updates of subscribed resources.

`listen_to_servers(handlers, listener)` turns what `ClientHandlers` hears (mcp notification
models, progress callbacks) into these events for one listener: the session controller emits
them as its own events, headless commands print them. Nothing here imports mcp at load time.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.text import shortened

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP's log levels (RFC 5424's), least severe first."""

MAX_LOG_DATA_CHARS = 64 * 1024
"""A log message's data past this many characters of JSON is kept as its shortened text."""

ListKind = Literal["tools", "resources", "prompts"]


@dataclass(frozen=True)
class ServerLog:
    """A server's `notifications/message`."""

    endpoint: str
    level: str
    data: Any
    logger: str | None = None
    at: float = field(default_factory=time.time)
    """When it arrived (seconds since the epoch)."""

    def text(self) -> str:
        """The data as one string: itself when it is a string, else its JSON."""
        if isinstance(self.data, str):
            return self.data
        return json.dumps(self.data, ensure_ascii=False, default=str)


@dataclass(frozen=True)
class ToolProgress:
    """A server's `notifications/progress` for a running tools/call."""

    endpoint: str
    tool: str
    progress: float
    total: float | None = None
    message: str | None = None


@dataclass(frozen=True)
class ListChanged:
    """A server says its list of tools, resources or prompts changed."""

    endpoint: str
    kind: ListKind


@dataclass(frozen=True)
class ResourceUpdated:
    """A server says a resource changed (`notifications/resources/updated`, sent for the
    resources the client subscribed to)."""

    endpoint: str
    uri: str


@dataclass(frozen=True)
class ServerTask:
    """A tool call run as an MCP task, as last seen: created, or its status polled."""

    endpoint: str
    tool: str
    task_id: str
    status: str
    """working, input_required, completed, failed or cancelled."""
    status_message: str | None = None
    at: float = field(default_factory=time.time)

    @property
    def is_over(self) -> bool:
        return self.status in {"completed", "failed", "cancelled"}


ServerEvent = ServerLog | ToolProgress | ListChanged | ResourceUpdated | ServerTask


def level_rank(level: str) -> int:
    """Position of `level` in LEVELS (an unknown level counts as the most severe)."""
    return LEVELS.index(level) if level in LEVELS else len(LEVELS)


def check_level(level: str) -> str:
    """`level` in lower case if it is an MCP log level; ValueError naming them otherwise."""
    if level.lower() not in LEVELS:
        raise ValueError(f"unknown log level {level!r} (use one of: {', '.join(LEVELS)})")
    return level.lower()


def bounded_data(data: Any) -> Any:
    """Log data as sent, or its JSON shortened to MAX_LOG_DATA_CHARS when longer."""
    if isinstance(data, str):
        return shortened(data, MAX_LOG_DATA_CHARS)
    text = json.dumps(data, ensure_ascii=False, default=str)
    return data if len(text) <= MAX_LOG_DATA_CHARS else shortened(text, MAX_LOG_DATA_CHARS)


def server_event(url: str, notification: Any) -> ServerEvent | None:
    """The event a notification (an `mcp.types` model) stands for, or None (progress comes
    through `ClientHandlers.on_progress`, where the call it belongs to is known)."""
    import mcp.types

    if isinstance(notification, mcp.types.LoggingMessageNotification):
        params = notification.params
        return ServerLog(url, str(params.level), bounded_data(params.data), params.logger)
    if isinstance(notification, mcp.types.ResourceUpdatedNotification):
        return ResourceUpdated(url, str(notification.params.uri))
    changed: list[tuple[type, ListKind]] = [
        (mcp.types.ToolListChangedNotification, "tools"),
        (mcp.types.ResourceListChangedNotification, "resources"),
        (mcp.types.PromptListChangedNotification, "prompts"),
    ]
    kind = next((kind for model, kind in changed if isinstance(notification, model)), None)
    return ListChanged(url, kind) if kind is not None else None


def listen_to_servers(handlers: ClientHandlers, listener: Callable[[ServerEvent], None]) -> None:
    """Give `listener` every ServerEvent that `handlers` hears from now on."""

    def on_notification(url: str, notification: Any) -> None:
        if (event := server_event(url, notification)) is not None:
            listener(event)

    def on_progress(
        url: str, tool: str, progress: float, total: float | None, message: str | None
    ) -> None:
        listener(ToolProgress(url, tool, progress, total, message))

    def on_task(url: str, tool: str, task: Any) -> None:
        listener(ServerTask(url, tool, task.task_id, task.status, task.status_message))

    handlers.on_notification.append(on_notification)
    handlers.on_progress.append(on_progress)
    handlers.on_task.append(on_task)
