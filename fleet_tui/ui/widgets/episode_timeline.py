"""The Episode pane's timeline (OpenEnv sessions): the reset that opened the current episode
(seed, options, time), then each step the env took — its action, reward and done — with the
step count and the reward total above. Enter (or a click) on a row shows that step's
observation in the result view. A reset or a reconnect starts the list again; rows are added
as steps come, never redrawn whole."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from fleet_tui.session_records import CallRecord, CallStatus, Episode
from fleet_tui.text import name_line, one_line
from fleet_tui.ui.widgets.history import arguments_summary

ACTION_WIDTH = 24
"""Characters of an action shown in its row (the step's result shows it whole)."""


class EpisodeTimeline(Vertical):
    """Rows of the current episode; `refresh_timeline()` after each step or reset."""

    DEFAULT_CSS = """
    EpisodeTimeline { height: auto; max-height: 60%; }
    EpisodeTimeline #episode-summary { height: auto; padding: 0 1; }
    EpisodeTimeline #episode-steps { height: auto; max-height: 16; }
    """

    def __init__(
        self,
        episode: Callable[[], Episode],
        show_step: Callable[[CallRecord], Awaitable[Any]],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.episode = episode
        self.show_step = show_step
        self._shown: Episode | None = None
        self._rows: dict[str, CallRecord] = {}

    def compose(self) -> ComposeResult:
        yield Static(Text("No episode yet.", style="dim"), id="episode-summary")
        yield DataTable(id="episode-steps", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label, key in (("#", "number"), ("action", "action"), ("reward", "reward")):
            table.add_column(label, key=key)
        self.refresh_timeline()

    def refresh_timeline(self) -> None:
        """Add the rows of steps taken since the last refresh (all of them for a new episode)."""
        episode = self.episode()
        table = self.query_one(DataTable)
        if episode is not self._shown:
            self._shown = episode
            table.clear()
            self._rows.clear()
            if episode.opening is not None:
                self._add(table, "reset", episode.opening, _reset_cells(episode))
        for number, step in enumerate(episode.history, start=1):
            key = f"step-{number}"
            if key not in self._rows:
                self._add(table, key, step, _step_cells(number, step))
        self.query_one("#episode-summary", Static).update(_summary(episode))

    def _add(self, table: DataTable[Any], key: str, record: CallRecord, cells: list[Text]) -> None:
        self._rows[key] = record
        table.add_row(*cells, key=key)
        table.move_cursor(row=table.row_count - 1)

    @on(DataTable.RowSelected, "#episode-steps")
    async def _show(self, event: DataTable.RowSelected) -> None:
        record = self._rows.get(str(event.row_key.value))
        if record is not None:
            await self.show_step(record)


def _summary(episode: Episode) -> Text:
    if episode.opening is None and not episode.history:
        return Text("No episode yet: a reset starts one.", style="dim")
    text = Text()
    steps = episode.steps
    text.append(f"{steps} step{'' if steps == 1 else 's'}", style="bold")
    text.append(f" · reward total {episode.total_reward:g}")
    if episode.done:
        text.append(" · done", style="bold yellow")
    if episode.started_at:
        text.append(f" · {time.strftime('%H:%M:%S', time.localtime(episode.started_at))}")
    return text


def _reset_cells(episode: Episode) -> list[Text]:
    opening = episode.opening
    assert opening is not None
    asked = arguments_summary(opening, ACTION_WIDTH - 6)
    action = Text("reset", style="bold")
    action.append(f" {asked}" if asked else "", style="dim")
    if opening.status != CallStatus.OK:
        action.append(f" {one_line(opening.message, ACTION_WIDTH)}", style="red")
    return [Text("0", style="dim"), action, Text("")]


def _step_cells(number: int, step: CallRecord) -> list[Text]:
    result = step.result
    reward = result.reward if result else None
    done = result.done if result else None
    name = name_line(step.tool, ACTION_WIDTH // 2)
    action = Text(name)
    action.append(f" {arguments_summary(step, ACTION_WIDTH - len(name) - 1)}", style="dim")
    outcome = Text("" if reward is None else f"{reward:g}", style="bold" if reward else "")
    if done:
        outcome.append(" done", style="bold yellow")
    return [Text(str(number), style="dim"), action, outcome]
