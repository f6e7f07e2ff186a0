"""What the app shows of the session's events: connection progress, the calls in the history
and under the form, the servers' log and traffic, their lists changing, an env closed.

A part of the app with a narrow port: `SessionView` reaches the app only through
`SessionViewHost`. It is made with the session, once the app's first frame is drawn, so the
session's events (and their models) load here then, not with the app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.signal import Signal

from fleet_tui.envs.server_events import ListChanged, ResourceUpdated, ServerLog
from fleet_tui.session_records import (
    CallAdded,
    CallFinished,
    CallProgress,
    CallRecord,
    CallUpdated,
    EnvClosed,
    Progress,
    SessionEvent,
    Traffic,
)
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.screens.main_screen import MainScreen, ProgressLine

if TYPE_CHECKING:
    from fleet_tui.ui.catalog import Catalog
    from fleet_tui.ui.connection import Connection


class SessionViewHost(AppServices, Protocol):
    """What showing the session's events needs of the app: its screen, the parts that list
    tools, resources and prompts again, and the signal extensions follow."""

    main: MainScreen
    connection: Connection
    catalog: Catalog
    call_finished: Signal[CallRecord]


class SessionView:
    """The session's events, shown in the order they come."""

    def __init__(self, host: SessionViewHost) -> None:
        self._host = host

    def show(self, event: SessionEvent) -> None:
        """Show what the session did (a listener of its events)."""
        host, main = self._host, self._host.main
        match event:
            case Progress(line):
                main.post_message(ProgressLine(line))  # may come from another thread
            case CallAdded(record):
                main.show_call_added(record)
            case CallProgress(record, progress, total, message):
                main.show_call_progress(record, progress, total, message)
            case CallUpdated(record):
                main.history.update_entry(record)
            case CallFinished(record):
                main.show_call_finished(record)
                host.call_finished.publish(record)
                main.refresh_status()
            case Traffic():
                main.protocol_pane.mark_stale()
            case ServerLog():
                main.server_log_pane.add(event)
            case ListChanged(kind="tools"):
                host.run_worker(
                    host.connection.refresh_tools(), group="tool-refresh", exclusive=True
                )
            case ListChanged(kind=kind):
                host.catalog.list_again(kind)
            case ResourceUpdated():
                host.catalog.resource_updated(event)
            case EnvClosed(info, failure):
                if failure is not None:
                    host.notify(f"Closing failed: {failure}", severity="error", markup=False)
                host.connection.remember_kept(info)
