"""The Trajectory pane: an agent's transcript, its calls listed with what their replay gave.

It shows a `TrajectoryRun` and acts only through the callable it is given (step, run to the
end, start over, verify, open another, show a step's replayed result); it never imports the app.
The highlighted step's detail is the line `replay` prints for it, its differences, and the
recorded result beside the replayed one. Everything from the transcript or the env is literal
text.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from fleet_tui.envs.base import ImageBlock, TextBlock, ToolResult
from fleet_tui.session.replay import step_lines
from fleet_tui.session.trajectory_run import StepState, TrajectoryRun, TrajectoryStep
from fleet_tui.text import clean, counted, name_line, one_line, pretty_json, shortened
from fleet_tui.ui.keymap import bindings_for

STEPS_HELP = "n step · a run all · r start over · v verify · o open"
RESULT_CHARS = 2000
"""Characters of a recorded or replayed result shown in the detail."""
INDENTED_CHARS = 100_000
"""A longer JSON text is shown as it is (indenting it would cost more than showing its start)."""

STATE_STYLES = {
    StepState.PENDING: "dim",
    StepState.SAME: "green",
    StepState.DIFFERS: "bold yellow",
    StepState.UNKNOWN_TOOL: "magenta",
    StepState.ERROR: "bold red",
    StepState.UNRECORDED: "cyan",
}


def step_line(step: TrajectoryStep, width: int = 30) -> Text:
    """`#4 echo`, then its state and arguments: `differs · {"text": "two"}`."""
    line = Text(f"#{step.call.seq} ", style="dim")
    line.append(name_line(step.call.tool, width), style="bold")
    line.append(f"\n{step.state}", style=STATE_STYLES[step.state])
    if step.call.arguments:
        arguments = json.dumps(step.call.arguments, ensure_ascii=False, default=str)
        line.append(" · " + one_line(arguments, width - len(step.state)), style="dim")
    return line


def result_text(result: ToolResult) -> str:
    """A result as plain text: its text blocks (JSON indented), a line per other block."""
    parts = []
    for block in result.blocks:
        if isinstance(block, TextBlock):
            parsed = block.parsed_json() if len(block.text) <= INDENTED_CHARS else None
            parts.append(block.text if parsed is None else pretty_json(parsed))
        elif isinstance(block, ImageBlock):
            parts.append(f"[{block.mime_type} image, {len(block.data)} bytes]")
        else:
            parts.append(f"[{block.type} block]")
    text = "\n".join(parts) or "(no content)"
    return clean(shortened(text, RESULT_CHARS)) + (" (is_error)" if result.is_error else "")


def step_detail(run: TrajectoryRun, step: TrajectoryStep) -> Text:
    """What the step asked, how its replay compares, and both results, as literal text (a
    line of it a line on screen)."""
    text = Text(no_wrap=True)
    if step.outcome is not None:
        first, *differences = step_lines(step.outcome)
        text.append(clean(first) + "\n", style=STATE_STYLES[step.state])
        for difference in differences:
            text.append(clean(difference.strip()) + "\n", style="yellow")
    else:
        text.append(f"#{step.call.seq} {name_line(step.call.tool, 60)}: pending\n", style="dim")
    arguments = json.dumps(step.call.arguments, ensure_ascii=False, indent=1, default=str)
    text.append("arguments\n", style="bold dim")
    text.append(clean(shortened(arguments, RESULT_CHARS)) + "\n")
    text.append("recorded\n", style="bold dim")
    if step.recorded is None:
        text.append("(no result in the transcript)\n", style="dim")
    else:
        text.append(result_text(run.session.tool_result(step.recorded.result)) + "\n")
    if step.record is not None:
        text.append(f"replayed (history #{step.record})\n", style="bold dim")
        text.append(result_text(step.actual) if step.actual else "(no result)", style="")
    return text


class TrajectorySteps(OptionList):
    """The transcript's calls; its keys post `TrajectorySteps.Chosen`."""

    HELP_AREA = "trajectory"
    BINDINGS = bindings_for("trajectory")

    class Chosen(Message):
        """`action` asked with step `index` highlighted (None: no step)."""

        def __init__(self, action: str, index: int | None) -> None:
            super().__init__()
            self.action = action
            self.index = index

    def action_choose(self, action: str) -> None:
        """A key of the pane: `action` with the highlighted step."""
        self.post_message(self.Chosen(action, self.highlighted))


class TrajectoryPane(Vertical):
    """The transcript's file and counts, its steps, the highlighted step's detail, the verdict."""

    HELP_AREA = "trajectory"

    def __init__(
        self,
        run: TrajectoryRun,
        *,
        on_action: Callable[[TrajectorySteps.Chosen], None],
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.run = run
        self.on_action = on_action
        """Does what a key on the steps asks."""

    def compose(self) -> ComposeResult:
        yield Static(id="trajectory-file")
        yield Static(Text(STEPS_HELP, style="dim"), id="trajectory-help")
        yield TrajectorySteps(id="trajectory-steps")
        with VerticalScroll(id="trajectory-detail-scroll", can_focus=False):
            yield Static(id="trajectory-detail")
        yield Static(Text("verifier: not run", style="dim"), id="trajectory-verdict")

    def on_mount(self) -> None:
        self.show_steps()

    def show_run(self, run: TrajectoryRun) -> None:
        """Show another transcript."""
        self.run = run
        self.query_one(TrajectorySteps).highlighted = None
        self.show_verdict(Text("verifier: not run", style="dim"))
        self.show_steps()

    def show_steps(self, highlight: int | None = None) -> None:
        """Show every step as it is now (`highlight`: move to that step)."""
        steps = self.query_one(TrajectorySteps)
        current = steps.highlighted if highlight is None else highlight
        steps.clear_options()
        steps.add_options([Option(step_line(s), id=str(i)) for i, s in enumerate(self.run.steps)])
        steps.highlighted = min(current or 0, len(self.run.steps) - 1)
        self._show_head()
        self.show_detail()

    def show_step(self, index: int) -> None:
        """Show the step at `index` as it is now, and move to it (the others are unchanged)."""
        steps = self.query_one(TrajectorySteps)
        steps.replace_option_prompt_at_index(index, step_line(self.run.steps[index]))
        steps.highlighted = index
        self._show_head()
        self.show_detail()

    def _show_head(self) -> None:
        """The file's name, the number of calls and how many are in each state."""
        head = Text(name_line(self.run.path.name, 30), style="bold")
        head.append(f" · {counted(len(self.run.steps), 'call')}\n", style="dim")
        head.append(" · ".join(f"{n} {state}" for state, n in self.run.counts().items()))
        self.query_one("#trajectory-file", Static).update(head)

    def show_detail(self) -> None:
        index = self.query_one(TrajectorySteps).highlighted
        detail = self.query_one("#trajectory-detail", Static)
        detail.update(step_detail(self.run, self.run.steps[index]) if index is not None else "")

    def show_verdict(self, text: Text) -> None:
        self.query_one("#trajectory-verdict", Static).update(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # a click: show the step's replayed result, as enter does
        self.on_action(TrajectorySteps.Chosen("show_step", event.option_index))

    def on_trajectory_steps_chosen(self, event: TrajectorySteps.Chosen) -> None:
        event.stop()
        self.on_action(event)
