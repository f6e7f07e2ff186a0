"""An agent's transcript stepped through one call at a time (the app's Trajectory pane).

`TrajectoryRun` keeps, beside the transcript read by `trajectory.load_trajectory`, the state of
each of its calls: pending until replayed, then the same as recorded, different, an error (the
call failed) or without a recorded result to compare ("no record"); a call to a tool the env
lacks is an unknown tool, and one whose arguments could not be read an error: neither is made.
Each is judged as `replay` judges it (`replay.judge_step` and `replay.unmade_step`, as a
transcript), so the pane and `replay --trajectory` say the same of every step.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from fleet_tui.envs.base import ToolResult
from fleet_tui.session.events import CallEvent, ResultEvent
from fleet_tui.session.reader import Session
from fleet_tui.session.replay import StepOutcome, failed_step, judge_step, unmade_step
from fleet_tui.session.trajectory import load_trajectory, map_tool_names


class StepState(StrEnum):
    PENDING = "pending"
    SAME = "same"
    DIFFERS = "differs"
    UNKNOWN_TOOL = "unknown tool"
    ERROR = "error"
    UNRECORDED = "no record"
    """Replayed, but the transcript holds no result to compare with."""


@dataclass
class TrajectoryStep:
    call: CallEvent
    recorded: ResultEvent | None
    state: StepState = StepState.PENDING
    outcome: StepOutcome | None = None
    actual: ToolResult | None = None
    """The replayed result (None until replayed, or when the call failed)."""
    record: int | None = None
    """The number of the session's call record the replay made."""


@dataclass
class TrajectoryRun:
    session: Session
    steps: list[TrajectoryStep] = field(default_factory=list)
    tools: set[str] | None = None
    """The env's tool names, once known."""

    @classmethod
    def load(cls, path: str | Path) -> TrajectoryRun:
        """The transcript at `path`; EnvError in plain words when it is none."""
        session = load_trajectory(path)
        run = cls(session, [TrajectoryStep(step.call, step.result) for step in session.steps()])
        run.restart()
        return run

    @property
    def path(self) -> Path:
        return self.session.path

    def map_tools(self, tools: list[str]) -> None:
        """Map prefixed names onto the env's `tools`; a pending call to any other tool becomes
        an unknown tool (and one that is known again, pending)."""
        map_tool_names(self.session, tools)
        self.tools = set(tools)
        for step in self.steps:
            if step.state in (StepState.PENDING, StepState.UNKNOWN_TOOL):
                step.outcome = unmade_step(step.call, self.tools)
                known = step.outcome is None
                step.state = StepState.PENDING if known else StepState.UNKNOWN_TOOL

    def next_step(self) -> TrajectoryStep | None:
        """The first call not replayed yet (unknown tools are skipped)."""
        return next((s for s in self.steps if s.state == StepState.PENDING), None)

    def restart(self) -> None:
        """Every call pending again (a fresh env), but those that cannot be made."""
        for step in self.steps:
            step.state, step.outcome, step.actual, step.record = StepState.PENDING, None, None, None
            if (outcome := unmade_step(step.call, None)) is not None:
                step.state, step.outcome = StepState.ERROR, outcome
        if self.tools is not None:
            self.map_tools(sorted(self.tools))

    def judge(self, step: TrajectoryStep, actual: ToolResult | None, failure: str) -> None:
        """Keep the replayed result (None: the call failed, `failure` says why) and its state."""
        step.actual = actual
        if actual is None:
            step.outcome, step.state = failed_step(step.call, failure), StepState.ERROR
            return
        outcome = judge_step(self.session, step.call, step.recorded, actual, transcript=True)
        step.outcome = outcome
        if step.recorded is None:
            step.state = StepState.UNRECORDED
        elif outcome.matched:
            step.state = StepState.SAME
        else:
            step.state = StepState.DIFFERS if outcome.differences else StepState.ERROR

    def counts(self) -> Counter[StepState]:
        return Counter(step.state for step in self.steps)
