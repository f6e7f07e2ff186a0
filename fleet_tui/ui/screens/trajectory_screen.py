"""Ask for an agent transcript's path and read it; a file that is none is said in plain words
and the path stays, to be corrected."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from fleet_tui.envs.base import EnvError
from fleet_tui.session.trajectory_run import TrajectoryRun
from fleet_tui.text import clean
from fleet_tui.ui.keymap import bindings_for

FORMS = (
    "OpenAI chat completions (tool_calls + tool messages) or Anthropic Messages "
    "(tool_use + tool_result blocks), as JSON or JSONL"
)


class TrajectoryScreen(ModalScreen[TrajectoryRun | None]):
    """Dismisses with the transcript read, or None when cancelled."""

    HELP_AREA = "trajectory_open"
    BINDINGS = bindings_for("trajectory_open")

    def compose(self) -> ComposeResult:
        with Vertical(id="trajectory-open") as box:
            box.border_title = "Open an agent trajectory"
            yield Label(Text(FORMS, style="dim"))
            yield Input(placeholder="path to the transcript", id="trajectory-path")
            yield Static("", id="trajectory-error")

    @on(Input.Submitted, "#trajectory-path")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = event.value.strip()
        if path:
            self._load(Path(path).expanduser())

    @work(group="trajectory-load", exclusive=True, exit_on_error=False)
    async def _load(self, path: Path) -> None:
        error = self.query_one("#trajectory-error", Static)
        error.update(Text("reading…", style="dim"))
        try:
            run = await asyncio.to_thread(TrajectoryRun.load, path)
        except EnvError as failure:
            error.update(Text(clean(failure.message)))
            return
        self.dismiss(run)

    def action_cancel(self) -> None:
        self.dismiss(None)
