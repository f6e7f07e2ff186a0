"""The Jobs pane's part of the app: the tool calls run as MCP tasks, as the session reports them,
and the tasks the servers list.

`ServerTasksWatch().install(app)` listens to the session controller; the first call run as a
task adds the Jobs tab to the sidebar (most servers have none, so most sessions never show it),
and so does its key (`ctrl+j`), which also lists the servers' tasks (`tasks/list`). Each status
a task is seen in updates its row, and its call's end gives the row its last status. Enter shows
the call's result in the result view; `c` cancels a running task's call, as esc does for the
running call (the call sends `tasks/cancel`); `r` lists the servers' tasks again. A tool whose
task support is "optional" gets a plain call from ctrl+s, and a task call from the command
palette's *Call the selected tool as an MCP task*.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from textual.widget import Widget
from textual.worker import Worker

from fleet_tui.envs.errors import EnvError
from fleet_tui.envs.tool_tasks import optional_tools_as_tasks
from fleet_tui.text import one_line
from fleet_tui.ui.calls import ShowResult
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.keymap import Extension

if TYPE_CHECKING:  # the session's models load after the first frame, the Jobs pane (a
    # DataTable) when a call first runs as a task
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.server_events import ServerTask
    from fleet_tui.session_records import SessionEvent
    from fleet_tui.ui.widgets.server_tasks_pane import ServerTasksPane

PANE_ID = "pane-jobs"


class JobsHost(AppServices, Protocol):
    """What the Jobs pane needs of the app."""

    @property
    def controller(self) -> SessionController: ...

    extension_actions: dict[Extension, Callable[[], Any]]

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...

    def action_cancel_call(self) -> None: ...

    def action_call(self, _held: str = "") -> None: ...


@dataclass
class ServerTasksWatch:
    pane: ServerTasksPane | None = None
    _adding: Worker[None] | None = None
    """Adds the pane's tab to the sidebar."""
    app: JobsHost = field(init=False)

    def install(self, app: JobsHost) -> None:
        self.app = app
        app.extension_actions[Extension.SHOW_JOBS] = self.show_pane
        app.extension_actions[Extension.CALL_AS_TASK] = self.call_as_task
        app.controller.subscribe(self._session_event)

    def call_as_task(self) -> None:
        """Call the form's tool as ctrl+s does, as a task when its task support is optional
        (the call's worker starts in this context, so it keeps the choice)."""
        with optional_tools_as_tasks(True):
            self.app.action_call()

    def show_pane(self) -> None:
        """Show the Jobs pane (added if it is not there yet), and list the servers' tasks."""
        self.app.run_worker(self._show_pane(), group="jobs-pane")

    async def _show_pane(self) -> None:
        pane = self._pane()
        if self._adding is not None:
            await self._adding.wait()
        self.app.show_sidebar_pane(PANE_ID)
        pane.focus()
        await self._list()

    def _pane(self) -> ServerTasksPane:
        """The pane, its tab added now if it has none (rows may go in before the tab is up)."""
        from fleet_tui.ui.widgets.server_tasks_pane import ServerTasksPane

        if self.pane is None:
            self.pane = ServerTasksPane(
                show=self._show, cancel=self._cancel, refresh=self._refresh, id="jobs"
            )
            self._adding = self.app.run_worker(
                self.app.add_sidebar_pane("Jobs", self.pane, PANE_ID), group="jobs-pane"
            )
        return self.pane

    def _refresh(self) -> None:
        self.app.run_worker(self._list(), group="jobs-list", exclusive=True)

    async def _list(self) -> None:
        """The servers' tasks into the pane; said when they cannot be listed."""
        if not self.app.controller.can_list_catalog:
            return  # not an MCP target: only its calls' tasks show
        try:
            listing = await self.app.controller.list_server_tasks()
        except EnvError as error:
            self.app.notify(f"Tasks not listed: {error}", severity="warning", markup=False)
            return
        for warning in listing.warnings:
            self.app.notify(one_line(warning, 300), severity="warning", markup=False)
        if self.pane is not None:
            for task in listing.items:
                self.pane.show_listed(task)

    def _session_event(self, event: SessionEvent) -> None:
        from fleet_tui.session_records import CallFinished, CallTaskStatus

        match event:
            case CallTaskStatus(record, task):
                self.app.call_later(self._pane().show_task, record, task)
            case CallFinished(record) if self.pane is not None:
                self.app.call_later(self.pane.call_finished, record)

    def _show(self, record: CallRecord | None, task: ServerTask) -> None:
        if record is None:
            self.app.notify(f"Task {task.task_id} was not started by a call of this session.")
            return
        self.app.post_message(ShowResult(record))

    def _cancel(self, record: CallRecord | None, task: ServerTask) -> None:
        if record is None or not record.is_running:
            self.app.notify(f"Task {task.task_id} has no running call here: nothing to cancel.")
            return
        self.app.action_cancel_call()
