"""Task authoring checks: for each task, provision, reset, verify the untouched env (a pass
there means the task passes without any work), replay the task's gold session if there is one
and expect a pass, close. Tasks run concurrently, each on its own instance.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from fleet_tui.envs.base import EnvError, Task, Verdict
from fleet_tui.envs.targets import Target
from fleet_tui.session.reader import load_session
from fleet_tui.session.replay import StepOutcome, replay_session
from fleet_tui.tasks.provision import connected, task_target
from fleet_tui.tasks.verify import VerifierMode, run_verifier
from fleet_tui.text import one_line

if TYPE_CHECKING:
    import fleet

SHOWN_DIVERGENCES = 3
"""Differing steps a task's row names (the report's JSON has every step)."""

Status = Literal["pass", "fail", "error"]
Progress = Callable[[str, str], None]
"""Receives (task key, one line of what is happening)."""


class TaskReport(BaseModel):
    key: str
    env_key: str | None = None
    status: Status = "pass"
    problems: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    untouched: Verdict | None = None
    gold_session: str | None = None
    gold: Verdict | None = None
    replay_steps: int = 0
    replay_divergences: int = 0
    duration_s: float = 0.0

    def fail(self, problem: str, status: Status = "fail") -> None:
        self.problems.append(problem)
        if self.status != "error":
            self.status = status


class CheckReport(BaseModel):
    tasks: list[TaskReport] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(task.status == "pass" for task in self.tasks)


def gold_path(gold_dir: Path | None, task: Task) -> Path | None:
    """The task's gold session, `<gold_dir>/<task key>.jsonl`, if it exists."""
    if gold_dir is None:
        return None
    path = gold_dir / f"{task.key}.jsonl"
    return path if path.is_file() else None


def describe_verdict(verdict: Verdict) -> str:
    if not verdict.success:
        return f"{verdict.error_type or 'Error'}: {verdict.error_message or 'verifier failed'}"
    return "no score" if verdict.score is None else f"score {verdict.score:g}"


async def check_task(
    task: Task,
    base: Target,
    *,
    gold_dir: Path | None = None,
    mode: VerifierMode = "remote",
    timeout_s: float = 30.0,
    ignore_keys: list[str] | None = None,
    progress: Progress | None = None,
    client: fleet.AsyncFleet | None = None,
) -> TaskReport:
    """Check one task on its own instance; never raises for a task-level problem. `client`: a
    Fleet client shared by the tasks on one host (see `shared_fleet_client`)."""
    report = TaskReport(key=task.key, env_key=task.env_key)
    started = time.perf_counter()

    def say(message: str) -> None:
        if progress:
            progress(task.key, message)

    try:
        if not task.verifier_code:
            raise EnvError("the task has no verifier code")
        target = task_target(task, base)
        say(f"provisioning {target.describe()}")
        async with connected(target, client=client) as env:
            say("resetting")
            await env.reset()
            say("verifying the untouched env")
            report.untouched = await run_verifier(env, task, mode=mode, timeout_s=timeout_s)
            if not report.untouched.success:
                report.fail(f"verifier error: {describe_verdict(report.untouched)}")
            elif report.untouched.passed:
                report.fail("passes without any work (the verifier passes on the untouched env)")
            await _check_gold(report, task, env, gold_dir, mode, timeout_s, ignore_keys, say)
    except EnvError as error:
        report.fail(error.message, status="error")
    report.duration_s = time.perf_counter() - started
    say(report.status.upper() + (f": {report.problems[0]}" if report.problems else ""))
    return report


async def _check_gold(report, task, env, gold_dir, mode, timeout_s, ignore_keys, say) -> None:
    path = gold_path(gold_dir, task)
    if path is None:
        if gold_dir is not None:
            report.notes.append("no gold session")
        return

    async def verify(t: Task) -> Verdict:
        return await run_verifier(env, t, mode=mode, timeout_s=timeout_s)

    await replay_gold(report, task, env, path, verify, ignore_keys, say)
    if report.gold is None:
        return
    if not report.gold.success:
        report.fail(f"gold session: verifier error: {describe_verdict(report.gold)}")
    elif not report.gold.passed:
        report.fail(f"gold session does not pass ({describe_verdict(report.gold)})")


async def replay_gold(
    report: TaskReport,
    task: Task,
    env: Any,
    path: Path,
    verify: Callable[[Task], Awaitable[Verdict]],
    ignore_keys: list[str] | None,
    say: Callable[[str], None],
) -> None:
    """Reset `env`, replay the gold session at `path` on it and note in `report` its verdict
    (from `verify`), its steps and how many results differ from the recorded ones."""
    report.gold_session = str(path)
    session = load_session(path)
    say(f"replaying {path.name} ({len(session.steps())} calls)")
    await env.reset()
    replay = await replay_session(
        session, env, verify=verify, task=task, ignore_keys=ignore_keys or []
    )
    report.gold = replay.verdict
    report.replay_steps = len(replay.steps)
    diverged = [step for step in replay.steps if step.diverged]
    report.replay_divergences = len(diverged)
    if diverged:
        report.notes.append(divergence_note(diverged))


def divergence_note(diverged: list[StepOutcome]) -> str:
    """Which replayed steps differ from the gold, and how (the first few; --json has all)."""
    count = len(diverged)
    shown = "; ".join(
        f"step {step.seq} {one_line(step.tool, 40)}: "
        + one_line(step.differences[0] if step.differences else step.note or "differs", 80)
        for step in diverged[:SHOWN_DIVERGENCES]
    )
    rest = count - SHOWN_DIVERGENCES
    more = f"; {rest} more in --json" if rest > 0 else ""
    differ = "results differ" if count > 1 else "result differs"
    return f"{count} replayed {differ} from the gold: {shown}{more}"


async def check_tasks(
    tasks: list[Task],
    base: Target,
    *,
    parallel: int = 1,
    progress: Progress | None = None,
    **options,
) -> CheckReport:
    """Check every task, `parallel` at a time; reports come back in the tasks' order."""
    return await check_concurrently(
        tasks, lambda task: check_task(task, base, progress=progress, **options), parallel
    )


async def check_concurrently(
    tasks: list[Task], check: Callable[[Task], Awaitable[TaskReport]], parallel: int
) -> CheckReport:
    """`check` each task, `parallel` at a time; reports come back in the tasks' order."""
    gate = asyncio.Semaphore(max(1, parallel))

    async def one(task: Task) -> TaskReport:
        async with gate:
            return await check(task)

    return CheckReport(tasks=list(await asyncio.gather(*(one(t) for t in tasks))))
