"""`fleet-tui verify TARGET --tasks FILE --task KEY [--final-answer TEXT]`: run one task's
verifier against the env, and print score, success, stdout and error.

The verifier runs in a child process with a time limit, remotely through the SDK (the default)
or locally against snapshots of the env's SQLite resources (`--verifier-mode local`).

Without ENV_KEY or --instance the task's own env (and version) is provisioned.
Exit code 0 when the task passed, 1 when the verifier failed, raised or scored below 1.
"""

from __future__ import annotations

import argparse

from fleet_tui.commands.options import add_verifier_arguments
from fleet_tui.commands.output import out, print_json
from fleet_tui.commands.target_options import has_target, target_from_args
from fleet_tui.envs.base import Env, Verdict
from fleet_tui.target_argv import add_target_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--tasks", required=True, metavar="FILE", help="task file (Fleet JSON)")
    parser.add_argument("--task", required=True, metavar="KEY", help="the task to verify")
    parser.add_argument("--final-answer", metavar="TEXT", help="the agent's final answer")
    add_verifier_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_env
    from fleet_tui.tasks.files import find_task, load_tasks

    task = find_task(load_tasks(args.tasks), args.task)
    if not has_target(args) and task.env_key:
        args.env_key = f"{task.env_key}:{task.version}" if task.version else task.env_key
    target = target_from_args(args)

    async def work(env: Env) -> int:
        from fleet_tui.tasks.verify import run_verifier

        verdict = await run_verifier(
            env,
            task,
            mode=args.verifier_mode,
            final_answer=args.final_answer,
            timeout_s=args.timeout,
        )
        if args.json:
            print_json(verdict.model_dump(mode="json"))
        else:
            print_verdict(verdict)
        return 0 if verdict.passed else 1

    return run_on_env(target, work)


def print_verdict(verdict: Verdict) -> None:
    outcome = "PASSED" if verdict.passed else "FAILED"
    timing = f" in {verdict.execution_time_ms:.0f} ms" if verdict.execution_time_ms else ""
    out(
        f"task {verdict.task_key}: {outcome}  score={verdict.score}  "
        f"success={verdict.success}{timing}"
    )
    if verdict.stdout:
        out("stdout:")
        out(verdict.stdout.rstrip("\n"))
    if verdict.error_type or verdict.error_message:
        out(f"error: {verdict.error_type or 'Error'}: {verdict.error_message or ''}")
    if verdict.traceback:
        out("verifier traceback:")
        for line in verdict.traceback.rstrip("\n").split("\n"):
            out(f"  {line}")
