"""`fleet-tui verify TARGET --tasks FILE --task KEY [--final-answer TEXT]`: run one task's
verifier against the env, and print score, success, stdout and error.

The verifier runs in a child process with a time limit, remotely through the SDK (the default)
or locally against snapshots of the env's SQLite resources (`--verifier-mode local`).

Without ENV_KEY or --instance the task's own env (and version) is provisioned.
Exit code 0 when the task passed, 1 when the verifier failed, raised or scored below 1.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.options import add_verifier_arguments
from fleet_tui.commands.output import Output
from fleet_tui.commands.target_options import has_target, target_from_args
from fleet_tui.envs.base import Verdict
from fleet_tui.target_argv import add_target_arguments

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--tasks", required=True, metavar="FILE", help="task file (Fleet JSON)")
    parser.add_argument("--task", required=True, metavar="KEY", help="the task to verify")
    parser.add_argument("--final-answer", metavar="TEXT", help="the agent's final answer")
    add_verifier_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session
    from fleet_tui.tasks.files import find_task, load_tasks

    task = find_task(load_tasks(args.tasks), args.task)
    if not has_target(args) and task.env_key:
        args.env_key = f"{task.env_key}:{task.version}" if task.version else task.env_key
    target = target_from_args(args)
    out = Output(json=args.json)

    async def work(session: SessionController, out: Output) -> int:
        verdict = await session.verify(
            task, mode=args.verifier_mode, final_answer=args.final_answer, timeout_s=args.timeout
        )
        if out.json:
            out.print_json(verdict.model_dump(mode="json"))
        else:
            print_verdict(out, verdict)
        return 0 if verdict.passed else 1

    return run_on_session(SessionCommand(target, work, list_tools=False), out)


def print_verdict(out: Output, verdict: Verdict) -> None:
    outcome = "PASSED" if verdict.passed else "FAILED"
    timing = f" in {verdict.execution_time_ms:.0f} ms" if verdict.execution_time_ms else ""
    out.out(
        f"task {verdict.task_key}: {outcome}  score={verdict.score}  "
        f"success={verdict.success}{timing}"
    )
    if verdict.stdout:
        out.out("stdout:")
        out.out(verdict.stdout.rstrip("\n"))
    if verdict.error_type or verdict.error_message:
        out.out(f"error: {verdict.error_type or 'Error'}: {verdict.error_message or ''}")
    if verdict.traceback:
        out.out("verifier traceback:")
        for line in verdict.traceback.rstrip("\n").split("\n"):
            out.out(f"  {line}")
