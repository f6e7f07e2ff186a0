"""The Jobs pane: the tool calls run as MCP tasks (server-side tasks, not the Tasks pane's
Fleet tasks), one row each with its status and the server's status message, newest last.

Tasks the servers list (`tasks/list`) that no call of this session started are rows too, without
a call. The pane only shows; what its keys do comes from the callables it is given: enter shows
the call's result, `c` cancels a running one (which sends `tasks/cancel`), `r` lists the
servers' tasks again.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import DataTable

from fleet_tui.envs.server_events import ServerTask
from fleet_tui.session_records import CallRecord
from fleet_tui.text import name_line, one_line
from fleet_tui.ui.keymap import bindings_for

STATUS_STYLES = {
    "working": "yellow",
    "input_required": "magenta",
    "completed": "green",
    "failed": "red",
    "cancelled": "dim",
}


class ServerTasksPane(DataTable):
    """One row per task: the call's number, the task's status, the tool, the status message."""

    HELP_AREA = "jobs"
    BINDINGS = bindings_for("jobs")

    def __init__(
        self,
        *,
        show: Callable[[CallRecord | None, ServerTask], object],
        cancel: Callable[[CallRecord | None, ServerTask], object],
        refresh: Callable[[], object],
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._show, self._cancel, self._refresh = show, cancel, refresh
        self.tasks: dict[str, tuple[CallRecord | None, ServerTask]] = {}
        # (columns now, not on mount: the first task may come while the tab is being added)
        self.add_column("#", key="number")
        self.add_column("status", key="status")
        self.add_column("tool", key="tool")
        self.add_column("message", key="message")

    def show_task(self, record: CallRecord | None, task: ServerTask) -> None:
        """Add the task, or show what it is now."""
        known = task.task_id in self.tasks
        self.tasks[task.task_id] = (record, task)
        cells = self._cells(record, task)
        if not known:
            self.add_row(*cells, key=task.task_id)
            self.move_cursor(row=self.row_count - 1)
            return
        for column, value in zip(("number", "status", "tool", "message"), cells, strict=True):
            self.update_cell(task.task_id, column, value, update_width=True)

    def show_listed(self, task: ServerTask) -> None:
        """A task as `tasks/list` gives it (without its tool): kept with its call, if any."""
        record, known = self.tasks.get(task.task_id, (None, None))
        tool = known.tool if known is not None else task.tool
        self.show_task(
            record, ServerTask(task.endpoint, tool, task.task_id, task.status, task.status_message)
        )

    def call_finished(self, record: CallRecord) -> None:
        """The call of a task ended: a task last seen running ends with it (the call failed,
        timed out or was cancelled without a last word from the server)."""
        for task_id, (known, task) in list(self.tasks.items()):
            if known is not None and known.number == record.number and not task.is_over:
                ended = "completed" if record.status == "ok" else str(record.status)
                message = task.status_message if ended == "completed" else record.message
                self.show_task(
                    record, ServerTask(task.endpoint, task.tool, task_id, ended, message)
                )

    def _cells(self, record: CallRecord | None, task: ServerTask) -> list[Text]:
        return [
            Text(str(record.number) if record is not None else "", style="dim"),
            Text(task.status, style=STATUS_STYLES.get(task.status, "")),
            Text(name_line(task.tool, 30)) if task.tool else Text("(listed)", style="dim"),
            Text(one_line(task.status_message or "", 80), style="dim"),
        ]

    def current(self) -> tuple[CallRecord | None, ServerTask] | None:
        if not self.row_count:
            return None
        key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        return self.tasks.get(key or "")

    def action_show_task_result(self) -> None:
        if (current := self.current()) is not None:
            self._show(*current)

    def action_cancel_task(self) -> None:
        if (current := self.current()) is not None:
            self._cancel(*current)

    def action_list_server_tasks(self) -> None:
        self._refresh()
