"""The Jobs pane's part of the app: the tool calls run as MCP tasks, as the session reports them.

`ServerTasksWatch().install(app)` listens to the session controller; the first call run as a
task adds the Jobs tab to the sidebar (most servers have none, so most sessions never show it).
Each status the task is seen in updates its row, and its call's end gives the row its last
status. Enter shows the call's result in the result view; `c` cancels a running task's call, as
esc does for the running call (the call sends `tasks/cancel`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from textual.widget import Widget

from fleet_tui.controller import CallRecord, SessionController
from fleet_tui.session_records import CallFinished, CallTaskStatus, SessionEvent
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.keymap import Extension
from fleet_tui.ui.widgets.server_tasks_pane import ServerTasksPane

PANE_ID = "pane-jobs"


class JobsHost(AppServices, Protocol):
    """What the Jobs pane needs of the app."""

    controller: SessionController
    extension_actions: dict[Extension, Callable[[], Any]]

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...

    async def show_result(self, entry: CallRecord) -> None: ...

    def action_cancel_call(self) -> None: ...


@dataclass
class ServerTasksWatch:
    pane: ServerTasksPane | None = None
    app: JobsHost = field(init=False)

    def install(self, app: JobsHost) -> None:
        self.app = app
        app.extension_actions[Extension.SHOW_JOBS] = self.show_pane
        app.controller.subscribe(self._session_event)

    def show_pane(self) -> None:
        if self.pane is None:
            self.app.notify("No tool was called as an MCP task yet: the Jobs pane lists them.")
            return
        self.app.show_sidebar_pane(PANE_ID)
        self.pane.focus()

    def _session_event(self, event: SessionEvent) -> None:
        match event:
            case CallTaskStatus(record, task):
                if self.pane is None:
                    self.pane = ServerTasksPane(show=self._show, cancel=self._cancel, id="jobs")
                    self.app.run_worker(
                        self.app.add_sidebar_pane("Jobs", self.pane, PANE_ID), group="jobs-pane"
                    )
                self.app.call_later(self.pane.show_task, record, task)
            case CallFinished(record) if self.pane is not None:
                self.app.call_later(self.pane.call_finished, record)

    def _show(self, record: CallRecord) -> None:
        self.app.run_worker(self.app.show_result(record), group="jobs-show")

    def _cancel(self, record: CallRecord) -> None:
        if not record.is_running:
            self.app.notify(f"Call #{record.number} is over: nothing to cancel.")
            return
        self.app.action_cancel_call()
