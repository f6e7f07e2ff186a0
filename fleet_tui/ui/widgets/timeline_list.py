"""The run's timeline in the Agent pane: one row per event (`proxy/run_timeline.py`), the
person's note and score on the step a row belongs to.

Keys on a row: enter shows the step's call in the result view, n writes a note on it (the
input under the list: enter keeps it, escape leaves it as it was), + / = scores it +1,
- scores it -1, 0 scores it 0 (neutral). Notes and scores are kept on the step's record
(`SessionHistory.annotate`), so the session file records them.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from fleet_tui.session.timeline import TimelineRow, score_mark
from fleet_tui.session_records import CallRecord
from fleet_tui.text import one_line
from fleet_tui.ui.keymap import bindings_for

SHOWN_ROWS = 1000
"""The latest rows listed (the timeline keeps more; the export has them all): listing more
would cost the app its speed on every change."""

KIND_STYLES = {
    "request": "bold cyan",
    "held": "bold magenta",
    "released": "magenta",
    "edited": "bold yellow",
    "sent": "green",
    "result": "green",
    "verdict": "bold blue",
    "reset": "blue",
    "list": "cyan",
}
"""How each kind of row is told apart at a glance (a call never made: red)."""


def row_line(row: TimelineRow, record: CallRecord | None, width: int = 80) -> Text:
    """`12:01:02 held search` over `agent planner #62f6 {"q": "x"}` and, when the step has
    them, its score and note: each line cut to `width` (a narrow pane never wraps a row)."""
    head = Text(f"{row.at[11:19]} ", style="dim")
    head.append(f"{row.kind} ", style=KIND_STYLES.get(row.kind, "bold red"))
    head.append(one_line(row.what, width), style="bold")
    who = Text(one_line(row.caller, width), style="italic")
    if row.detail:
        who.append(f" · {one_line(row.detail, width)}", style="dim")
    lines = [head, who]
    if record is not None and (record.note or record.score is not None):
        mark = score_mark(record.score)
        noted = Text(f"#{record.number} ", style="dim")
        noted.append(f"[{mark}] " if mark else "", style="bold")
        noted.append(one_line(record.note, width), style="italic yellow")
        lines.append(noted)
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return Text("\n").join(lines)


class TimelineList(OptionList):
    """The rows, oldest first; keys post `TimelineList.Chosen` with the step of the row."""

    HELP_AREA = "timeline"
    BINDINGS = bindings_for("timeline")

    class Chosen(Message):
        """`action` (`show`, `note`, `score`, `export`) on the step `step` (None: no step)."""

        def __init__(self, action: str, step: int | None, score: int | None = None) -> None:
            super().__init__()
            self.action = action
            self.step = step
            self.score = score

    def __init__(
        self,
        rows: Callable[[], list[TimelineRow]],
        record: Callable[[int | None], CallRecord | None],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.rows = rows
        self.record = record
        self._steps: list[int | None] = []

    def show_rows(self) -> None:
        """List the latest rows again, keeping the highlighted one at the end when it was."""
        rows = self.rows()[-SHOWN_ROWS:]
        at_end = self.highlighted is None or self.highlighted >= self.option_count - 1
        highlighted = self.highlighted
        self.clear_options()
        self._steps = [row.step for row in rows]
        width = max(16, self.scrollable_content_region.width - 4)  # padding, scroll bar
        self.add_options([Option(row_line(row, self.record(row.step), width)) for row in rows])
        if rows:
            last = len(rows) - 1
            self.highlighted = last if at_end else min(highlighted or 0, last)

    def on_resize(self) -> None:
        """Cut the rows to the new width."""
        self.show_rows()

    def _choose(self, action: str, score: int | None = None) -> None:
        index = self.highlighted
        step = self._steps[index] if index is not None and index < len(self._steps) else None
        self.post_message(self.Chosen(action, step, score))

    def action_show_step(self) -> None:
        self._choose("show")

    def action_note_step(self) -> None:
        self._choose("note")

    def action_score_good(self) -> None:
        self._choose("score", 1)

    def action_score_neutral(self) -> None:
        self._choose("score", 0)

    def action_score_bad(self) -> None:
        self._choose("score", -1)

    def action_export_timeline(self) -> None:
        self._choose("export")
