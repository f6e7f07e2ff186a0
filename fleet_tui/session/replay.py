"""Re-run a recorded session on a fresh env and say, step by step, whether results match.

Resets and calls are replayed in their recorded order; each replayed result is compared with
the recorded one (`compare.compare_results`). Resource reads and prompt gets are not replayed,
only counted: they change nothing in the env, so the calls after them meet the same state
either way, and their contents (often the time, or live state) would differ for no fault. An
agent's calls that never reached the env (refused, abandoned, or refused before they could be
made) are listed, not made: the recorded env never saw them. Each step says whose call it was.
A call with no recorded answer is made but has nothing to be compared with: it is "no record",
neither a match nor a divergence.
A transcript's call (`trajectory.py`) whose arguments could not be read, or to a tool the env
lacks, is not made: it is a divergence saying why, as in the app's Trajectory pane.
If the session had a task, its verifier runs at the end through the `verify` function the
caller passes (remote or local mode).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection, Iterable

from pydantic import BaseModel, Field, computed_field

from fleet_tui.envs.base import Env, EnvError, Task, ToolResult, Verdict
from fleet_tui.session.compare import compare_results, compare_transcript_answer
from fleet_tui.session.events import (
    CallEvent,
    PromptEvent,
    ReadEvent,
    ResetEvent,
    ResultEvent,
    UnmadeEvent,
)
from fleet_tui.session.reader import Session
from fleet_tui.session.trajectory import call_problem
from fleet_tui.session_records import Agent, Caller, who
from fleet_tui.text import one_line, visible

VerifyFn = Callable[[Task], Awaitable[Verdict]]


class StepOutcome(BaseModel):
    seq: int
    """The call's seq in the recorded session."""
    tool: str
    arguments: dict = Field(default_factory=dict)
    matched: bool
    differences: list[str] = Field(default_factory=list)
    note: str | None = None
    """Why a step could not be compared (no recorded result, the call raised)."""
    unrecorded: bool = False
    """Made, but the session holds no answer to compare with ("no record")."""
    caller: str | None = None
    agent: Agent | None = None
    asked_arguments: dict | None = None
    """What the agent asked, when the person edited the call (`arguments`: what was sent)."""
    held_s: float | None = None

    @property
    def diverged(self) -> bool:
        return not self.matched and not self.unrecorded

    @classmethod
    def of(cls, call: CallEvent, matched: bool, note: str | None = None) -> StepOutcome:
        """The outcome of replaying `call`, with whose call it was."""
        return cls(
            seq=call.seq,
            tool=call.tool,
            arguments=call.arguments,
            matched=matched,
            caller=call.caller,
            agent=call.agent,
            asked_arguments=call.asked_arguments,
            held_s=call.held_s,
            note=note,
        )


class ReplayReport(BaseModel):
    session: str
    steps: list[StepOutcome] = Field(default_factory=list)
    resets: int = 0
    not_replayed: int = 0
    """Resource reads and prompt gets in the session (not replayed: see the module)."""
    unmade_calls: list[UnmadeEvent] = Field(default_factory=list)
    """Calls in the session that never reached the env (not made: see the module)."""
    task_key: str | None = None
    verdict: Verdict | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def unmade(self) -> int:
        return len(self.unmade_calls)

    @property
    def diverged(self) -> bool:
        return any(step.diverged for step in self.steps)

    @property
    def ok(self) -> bool:
        """Every step matched and, when there was a verifier, it passed."""
        return not self.diverged and (self.verdict is None or self.verdict.passed)


async def replay_session(
    session: Session,
    env: Env,
    *,
    verify: VerifyFn | None = None,
    task: Task | None = None,
    ignore_keys: Iterable[str] = (),
    on_step: Callable[[StepOutcome], None] | None = None,
    transcript: bool = False,
    tools: Collection[str] | None = None,
) -> ReplayReport:
    """Replay `session` on a connected `env`. `task` overrides the session's own task;
    `transcript` compares as `compare_transcript_answer` does (a transcript holds only what
    the model saw); a call to a tool outside `tools` (when given) is not made."""
    task = task or session.task()
    report = ReplayReport(session=str(session.path), task_key=task.key if task else None)
    results = {e.call_seq: e for e in session.events if isinstance(e, ResultEvent)}
    ignore = list(ignore_keys)
    for event in session.events:
        if isinstance(event, ResetEvent):
            await env.reset(event.seed, options=event.options)
            report.resets += 1
        elif isinstance(event, ReadEvent | PromptEvent):
            report.not_replayed += 1
        elif isinstance(event, UnmadeEvent):
            report.unmade_calls.append(event)
        elif isinstance(event, CallEvent):
            recorded = results.get(event.seq)
            if (not_made := unmade_step(event, tools)) is not None:
                outcome = not_made
            else:
                outcome = await _replay_call(session, env, event, recorded, ignore, transcript)
            report.steps.append(outcome)
            if on_step:
                on_step(outcome)
    if task is not None and verify is not None:
        report.verdict = await verify(task)
    return report


async def _replay_call(
    session: Session,
    env: Env,
    call: CallEvent,
    recorded: ResultEvent | None,
    ignore: list[str],
    transcript: bool,
) -> StepOutcome:
    try:
        actual = await env.call_tool(call.tool, call.arguments)
    except EnvError as error:
        return failed_step(call, error.message)
    return judge_step(session, call, recorded, actual, ignore_keys=ignore, transcript=transcript)


def unmade_step(call: CallEvent, tools: Collection[str] | None) -> StepOutcome | None:
    """The outcome of a call that is not made (its arguments unreadable, or its tool not one
    of `tools`), or None when it can be made."""
    if (problem := call_problem(call)) is not None:
        note = f"not made: {problem}"
    elif tools is not None and call.tool not in tools:
        note = f"unknown tool: the env has no tool {call.tool!r} (not made)"
    else:
        return None
    return StepOutcome.of(call, False, note=note)


def failed_step(call: CallEvent, message: str) -> StepOutcome:
    """The outcome of a replayed call that raised (`message` says why)."""
    return StepOutcome.of(call, False, note=f"the call failed: {message}")


def judge_step(
    session: Session,
    call: CallEvent,
    recorded: ResultEvent | None,
    actual: ToolResult,
    *,
    ignore_keys: Iterable[str] = (),
    transcript: bool = False,
) -> StepOutcome:
    """Compare the replayed result of `call` with the recorded one (`compare_results`, or for
    a transcript `compare_transcript_answer`)."""
    step = StepOutcome.of(call, True)
    if recorded is None:
        step.matched, step.unrecorded = False, True
        step.note = "nothing recorded to compare with: the call had no answer"
        return step
    try:
        expected = session.tool_result(recorded.result)
    except EnvError as error:
        step.matched, step.note = False, error.message
        return step
    compare = compare_transcript_answer if transcript else compare_results
    step.differences = compare(expected, actual, ignore_keys)
    step.matched = not step.differences
    return step


def step_lines(step: StepOutcome) -> list[str]:
    """The step as `replay` prints it: `step   3 echo: match` (`echo by agent planner 1.2
    #62f65ca2` for an agent's call), then a line on what the person did to it while it was
    held, then one line per difference."""
    verdict = "match" if step.matched else "no record" if step.unrecorded else "DIVERGED"
    note = f" ({step.note})" if step.note else ""
    lines = [
        f"step {step.seq:>3} {visible(step.tool)}{_by(step.caller, step.agent)}: {verdict}{note}"
    ]
    held = f"held {step.held_s:.1f} s" if step.held_s is not None else ""
    if step.asked_arguments is not None:
        asked = one_line(json.dumps(step.asked_arguments, ensure_ascii=False, default=str), 200)
        held = f"{held}, " if held else ""
        lines.append(f"          {held}edited by the person (the agent asked {asked})")
    elif held:
        lines.append(f"          {held}")
    return lines + [f"          {difference}" for difference in step.differences]


def unmade_line(call: UnmadeEvent) -> str:
    """A call that never reached the env, as `replay` lists it: `not made: nope by agent
    worker 0.3 #62f65ca2 (unknown_tool: No tool named nope.)`."""
    why = one_line(f"{call.outcome}: {call.message}", 300)
    return f"not made: {visible(call.tool)}{_by(call.caller, call.agent)} ({why})"


def _by(caller: str | None, agent: Agent | None) -> str:
    """` by agent planner 1.2 #62f65ca2` for an agent's call; nothing for the person's."""
    return f" by {who(caller, agent)}" if caller == Caller.AGENT else ""
