"""`fleet-tui check --tasks FILE`: do the verifiers fail on an untouched env and pass after
the gold session? Many tasks at once, each on its own instance.

`fleet-tui check --openenv URL [--split S]`: does each task of an OpenEnv server reset, and
does its gold session earn at least `--pass-reward`? (tasks/check_openenv.py)"""

from __future__ import annotations

import argparse

from fleet_tui.commands.options import (
    add_ignore_key_argument,
    add_verifier_arguments,
    print_report,
)
from fleet_tui.commands.output import err
from fleet_tui.commands.target_options import add_repeatable
from fleet_tui.target_argv import add_target_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_repeatable(
        parser,
        "--tasks",
        metavar="FILE",
        help="Fleet task file (JSON; repeatable); with --openenv URL, the server's tasks",
    )
    add_repeatable(parser, "--task", metavar="KEY", help="check only this task (repeatable)")
    parser.add_argument(
        "--gold", metavar="DIR", help="folder of gold sessions, one per task: DIR/<task key>.jsonl"
    )
    parser.add_argument("--parallel", type=int, default=1, metavar="N", help="tasks at once")
    parser.add_argument("--split", metavar="S", help="OpenEnv: check this split only")
    parser.add_argument(
        "--pass-reward",
        type=float,
        default=1.0,
        metavar="R",
        help="OpenEnv: the total reward a gold session must earn (default 1)",
    )
    add_verifier_arguments(parser)
    add_ignore_key_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    add_target_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from fleet_tui.commands.target_options import target_from_args
    from fleet_tui.envs.base import EnvError
    from fleet_tui.tasks.check import check_tasks
    from fleet_tui.tasks.files import load_tasks
    from fleet_tui.tasks.provision import shared_fleet_client, shared_host

    if args.parallel < 1:
        raise EnvError("--parallel must be at least 1")
    if not args.tasks:
        if args.openenv:
            return check_openenv(args)
        raise EnvError("give --tasks FILE, or --openenv URL to check an OpenEnv server's tasks")
    tasks = [task for path in args.tasks for task in load_tasks(path)]
    files = ", ".join(args.tasks)
    if args.task:
        known = {t.key for t in tasks}
        missing = [key for key in args.task if key not in known]
        if missing:
            raise EnvError(f"no task {', '.join(missing)} in {files}")
        tasks = [t for t in tasks if t.key in args.task]
    if not tasks:
        raise EnvError(f"{files} holds no tasks")
    gold_dir = Path(args.gold) if args.gold else None
    if gold_dir is not None and not gold_dir.is_dir():
        raise EnvError(f"--gold {args.gold} is not a folder")
    # The target options say where to provision; each task names its own env.
    args.env_key = args.env_key or next((t.env_key for t in tasks if t.env_key), None)
    base = target_from_args(args)

    def progress(key: str, message: str) -> None:
        err(f"[{key}] {message}")

    async def main():
        async with shared_host(base) as target, shared_fleet_client(target) as client:
            return await check_tasks(
                tasks,
                target,
                parallel=args.parallel,
                progress=progress,
                gold_dir=gold_dir,
                mode=args.verifier_mode,
                timeout_s=args.timeout,
                ignore_keys=args.ignore_key,
                client=client,
            )

    return print_report(asyncio.run(main()), summary_table, args.json)


def check_openenv(args: argparse.Namespace) -> int:
    import asyncio
    from pathlib import Path

    from fleet_tui.commands.target_options import target_from_args
    from fleet_tui.envs.base import EnvError
    from fleet_tui.envs.targets import OpenEnvTarget
    from fleet_tui.tasks.check_openenv import check_openenv_tasks, openenv_tasks

    target = target_from_args(args)
    assert isinstance(target, OpenEnvTarget)  # args.openenv is set
    gold_dir = Path(args.gold) if args.gold else None
    if gold_dir is not None and not gold_dir.is_dir():
        raise EnvError(f"--gold {args.gold} is not a folder")

    async def main():
        tasks = await openenv_tasks(target, args.split)
        if args.task:
            missing = sorted(set(args.task) - {t.key for t in tasks})
            if missing:
                raise EnvError(f"no task {', '.join(missing)} on {target.url}")
            tasks = [t for t in tasks if t.key in args.task]
        if not tasks:
            raise EnvError(f"{target.url} has no tasks to check")
        return await check_openenv_tasks(
            tasks,
            target,
            parallel=args.parallel,
            progress=lambda key, message: err(f"[{key}] {message}"),
            gold_dir=gold_dir,
            pass_reward=args.pass_reward,
            ignore_keys=args.ignore_key,
        )

    return print_report(asyncio.run(main()), summary_table, args.json)


def summary_table(report) -> str:
    """One row per task, then a count."""
    rows = [("TASK", "ENV", "UNTOUCHED", "GOLD", "STATUS", "PROBLEMS / NOTES")]
    for task in report.tasks:
        untouched = _verdict_cell(task.untouched, want_pass=False)
        gold = _verdict_cell(task.gold, want_pass=True) if task.gold_session else "-"
        if task.gold_session and task.replay_divergences:
            gold += f" ({task.replay_divergences} diff)"
        rows.append(
            (
                task.key,
                task.env_key or "-",
                untouched,
                gold,
                task.status.upper(),
                "; ".join(task.problems + task.notes),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=False)) + "  " + row[5]
        for row in rows
    ]
    passed = sum(t.status == "pass" for t in report.tasks)
    lines.append(f"\n{passed}/{len(report.tasks)} tasks pass")
    return "\n".join(line.rstrip() for line in lines)


def _verdict_cell(verdict, *, want_pass: bool) -> str:
    """`score 0 (ok)` when the verdict is what the check wants, `score 1 (!)` when not."""
    if verdict is None:
        return "-"
    if not verdict.success:
        return f"{verdict.error_type or 'error'} (!)"
    score = "no score" if verdict.score is None else f"score {verdict.score:g}"
    return f"{score} ({'ok' if verdict.passed == want_pass else '!'})"
