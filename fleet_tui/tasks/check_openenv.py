"""Task checks on an OpenEnv server with task routes (an env `openenv import` generated): each
task of its splits must reset, and, given a gold session, replaying it in that task must earn
a total reward of at least `pass_reward`. The env scores itself: there is no verifier to run on
an untouched env. Tasks run one session each, `parallel` at a time (imported servers usually
allow one session at a time).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fleet_tui.envs.base import EnvError, Task, ToolResult, Verdict
from fleet_tui.envs.openenv import OpenEnvEnv, http_routes
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.tasks.check import (
    CheckReport,
    Progress,
    TaskReport,
    check_concurrently,
    gold_path,
    replay_gold,
)


async def openenv_tasks(target: OpenEnvTarget, split: str | None = None) -> list[Task]:
    """Every task of the server's splits (or of `split`)."""
    http = http_routes(target)
    try:
        if await http.env_name(None) is None:
            raise EnvError(f"{http.base_url} has no task routes (it is not an imported env)")
        names = [split] if split else [str(s["name"]) for s in await http.splits()]
        return [task for name in names for task in await http.task_range(name)]
    finally:
        await http.aclose()


class RewardTally:
    """An OpenEnv session that adds up its episode's rewards (a reset starts again at 0)."""

    def __init__(self, env: OpenEnvEnv) -> None:
        self.env = env
        self.total = 0.0

    async def reset(self, seed: int | None = None, **kwargs: Any) -> Any:
        self.total = 0.0
        return await self.env.reset(seed, **kwargs)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        result = await self.env.call_tool(name, arguments)
        self.total += result.reward or 0.0
        return result

    def verdict(self, task: Task, pass_reward: float) -> Verdict:
        return Verdict(
            task_key=task.key,
            success=True,
            score=self.total,
            passed=self.total >= pass_reward,
            mode="openenv",
        )


async def check_openenv_task(
    task: Task,
    target: OpenEnvTarget,
    *,
    gold_dir: Path | None = None,
    pass_reward: float = 1.0,
    ignore_keys: list[str] | None = None,
    progress: Progress | None = None,
) -> TaskReport:
    """Check one task in its own session; never raises for a task-level problem."""
    report = TaskReport(key=task.key, env_key=None)
    started = time.perf_counter()

    def say(message: str) -> None:
        if progress:
            progress(task.key, message)

    env = OpenEnvEnv(target, split=task.split, index=task.index)
    try:
        say(f"resetting into task {task.index} of split {task.split!r}")
        await env.connect()
        path = gold_path(gold_dir, task)
        if path is None:
            if gold_dir is not None:
                report.notes.append("no gold session")
        else:
            await _replay_gold(report, task, RewardTally(env), path, pass_reward, ignore_keys, say)
    except EnvError as error:
        report.fail(error.message, status="error")
    finally:
        await env.close()
    report.duration_s = time.perf_counter() - started
    say(report.status.upper() + (f": {report.problems[0]}" if report.problems else ""))
    return report


async def _replay_gold(report, task, tally, path, pass_reward, ignore_keys, say) -> None:
    async def verify(_task: Task) -> Verdict:
        return tally.verdict(task, pass_reward)

    await replay_gold(report, task, tally, path, verify, ignore_keys, say)
    if report.gold is not None and not report.gold.passed:
        report.fail(f"gold session earns {report.gold.score:g}, below {pass_reward:g}")


async def check_openenv_tasks(
    tasks: list[Task], target: OpenEnvTarget, *, parallel: int = 1, **options: Any
) -> CheckReport:
    """Check every task, `parallel` sessions at a time; reports in the tasks' order."""
    return await check_concurrently(
        tasks, lambda task: check_openenv_task(task, target, **options), parallel
    )
