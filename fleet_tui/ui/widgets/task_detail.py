"""One task: its prompt (Markdown) and its verifier code (highlighted)."""

from __future__ import annotations

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from fleet_tui.envs.base import Task
from fleet_tui.text import clean


def task_heading(task: Task) -> Text:
    text = Text(clean(task.key), style="bold")
    facts = [task.env_key or "no env"]
    if task.version:
        facts[0] += f":{task.version}"
    if task.data_key:
        facts.append(f"data {task.data_key}")
    facts.append(task.task_modality or "no modality")
    text.append("  " + clean(" · ".join(facts)), style="dim")
    return text


class TaskDetail(VerticalScroll):
    DEFAULT_CSS = """
    TaskDetail { height: 1fr; overflow-x: auto; }
    TaskDetail #task-heading { padding: 0 1; }
    TaskDetail #task-prompt { margin: 0 1; }
    /* as wide as its longest line: a narrow pane scrolls it sideways, never wraps it */
    TaskDetail #task-code { margin: 0 1; width: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.shown_task: Task | None = None

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # markdown-it and pygments: loaded on first use

        yield Static(Text("Pick a task.", style="dim"), id="task-heading")
        yield Markdown("", id="task-prompt")
        yield Static("", id="task-code")

    async def show(self, task: Task) -> None:
        from textual.widgets import Markdown

        self.shown_task = task
        self.query_one("#task-heading", Static).update(task_heading(task))
        # Markdown renders the prompt as a document; raw HTML and Rich markup are not interpreted.
        await self.query_one("#task-prompt", Markdown).update(clean(task.prompt) or "*No prompt.*")
        code = task.verifier_code
        self.query_one("#task-code", Static).update(
            Syntax(clean(code), "python", theme="ansi_dark", line_numbers=True, word_wrap=False)
            if code
            else Text("No verifier code.", style="dim")
        )
