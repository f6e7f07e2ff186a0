"""The task browser: key, env, modality and a prompt preview per task, filtered as you type."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input

from fleet_tui.envs.base import Task
from fleet_tui.text import one_line


def task_matches(task: Task, query: str) -> bool:
    """Every word of `query` appears in the task's key, env, modality or prompt."""
    haystack = " ".join(
        [task.key, task.env_key or "", task.version or "", task.task_modality or "", task.prompt]
    ).lower()
    return all(word in haystack for word in query.lower().split())


def modality_label(task: Task) -> str:
    return {"computer_use": "computer", "tool_use": "tools"}.get(task.task_modality or "", "-")


class TaskBrowser(Vertical):
    """Posts `TaskBrowser.Highlighted` as the cursor moves and `TaskBrowser.Chosen` on enter."""

    DEFAULT_CSS = """
    TaskBrowser { height: 1fr; }
    TaskBrowser > DataTable { height: 1fr; }
    """

    class Highlighted(Message):
        def __init__(self, task: Task) -> None:
            super().__init__()
            self.task = task

    class Chosen(Highlighted):
        pass

    def __init__(self, tasks: list[Task], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tasks = tasks
        self.shown: list[Task] = []

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter tasks", id="task-filter")
        yield DataTable(id="task-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in ("task", "env", "modality", "prompt"):
            table.add_column(label, key=label)
        self.apply_filter("")

    @property
    def table(self) -> DataTable:
        return self.query_one(DataTable)

    def apply_filter(self, query: str) -> None:
        table = self.table
        table.clear()
        self.shown = [task for task in self.tasks if task_matches(task, query)]
        for index, task in enumerate(self.shown):
            env = task.env_key or "-"
            if task.version:
                env += f":{task.version}"
            table.add_row(
                Text(one_line(task.key, 40)),
                Text(one_line(env, 24), style="dim"),
                Text(modality_label(task)),
                Text(one_line(task.prompt, 70), style="dim"),
                key=str(index),
            )

    def set_tasks(self, tasks: list[Task]) -> None:
        self.tasks = tasks
        self.apply_filter(self.query_one(Input).value)

    def current(self) -> Task | None:
        table = self.table
        if not table.row_count:
            return None
        return self.shown[table.cursor_coordinate.row]

    def select(self, key: str) -> bool:
        """Move the cursor to the task with this key (clearing the filter if needed)."""
        if all(task.key != key for task in self.shown):
            self.query_one(Input).value = ""
            self.apply_filter("")
        for row, task in enumerate(self.shown):
            if task.key == key:
                self.table.move_cursor(row=row)
                return True
        return False

    @on(Input.Changed, "#task-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.apply_filter(event.value)

    @on(Input.Submitted, "#task-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        task = self.current()
        if task is not None:
            self.post_message(self.Highlighted(task))

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        task = self.current()
        if task is not None:
            self.post_message(self.Chosen(task))
