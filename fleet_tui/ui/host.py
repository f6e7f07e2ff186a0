"""What the app's extensions use of Textual's App, typed as Textual types it, so that the
extensions' host Protocols (`TaskHost`, `AgentHost`, `TrajectoryHost`) are met by the app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.message import Message
from textual.notifications import SeverityLevel
from textual.worker import Worker


class AppServices(Protocol):
    """Toasts, workers, deferred calls and messages to the app."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def run_worker(
        self,
        work: Any,
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[Any]: ...

    def post_message(self, message: Message) -> bool: ...

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...

    def call_after_refresh(
        self, callback: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> bool: ...
