"""`fleet-tui replay SESSION.jsonl TARGET`: re-run a recorded session's calls on a fresh env,
report per step whether results match, then run the task's verifier if it had one (or the
task `--tasks FILE --task KEY` names).
`fleet-tui replay --trajectory FILE TARGET` does the same for an agent's transcript (the forms
`session/transcripts/` reads)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.options import (
    add_ignore_key_argument,
    add_verifier_arguments,
    print_report,
)
from fleet_tui.commands.output import err, out
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import counted

if TYPE_CHECKING:
    from fleet_tui.envs.base import Task


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "session", metavar="SESSION.jsonl", nargs="?", help="a recorded session file"
    )
    parser.add_argument(
        "--trajectory",
        metavar="FILE",
        help="replay an agent's transcript instead (OpenAI chat or Responses, Anthropic, "
        "pydantic-ai, Claude Code, Gemini or LangChain messages; JSON or JSONL); structured "
        "content is not compared",
    )
    parser.add_argument("--tasks", metavar="FILE", help="a Fleet task file: run its verifier")
    parser.add_argument(
        "--task", metavar="KEY", help="the task of --tasks FILE whose verifier runs at the end"
    )
    add_target_arguments(parser)
    add_verifier_arguments(parser)
    parser.add_argument("--no-verify", action="store_true", help="do not run the task's verifier")
    add_ignore_key_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--play",
        action="store_true",
        help="play the session back in the app instead, with no env: its calls, results, "
        "pictures and verdicts appear at the recorded pace (f11 pauses, f12 steps)",
    )
    parser.add_argument(
        "--speed",
        metavar="N",
        type=float,
        default=1.0,
        help="with --play: N times faster than recorded; 0 plays one step per f12",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio

    from fleet_tui.commands.target_options import has_target, target_from_args
    from fleet_tui.envs.base import EnvError
    from fleet_tui.envs.targets import InstanceTarget
    from fleet_tui.session.reader import load_session
    from fleet_tui.session.replay import replay_session, step_lines
    from fleet_tui.session.timeline import latest_notes, note_line
    from fleet_tui.session.trajectory import load_trajectory, map_tool_names
    from fleet_tui.tasks.provision import connected, shared_host
    from fleet_tui.tasks.verify import run_verifier

    if args.trajectory is not None and args.session is not None and not args.env_key:
        args.env_key, args.session = args.session, None  # `--trajectory FILE ENV_KEY`
    if (args.session is None) == (args.trajectory is None):
        raise EnvError("give a session file or --trajectory FILE (one of them)")
    if args.play:
        return play(args)
    task = chosen_task(args.tasks, args.task)
    if args.trajectory is not None:
        session = load_trajectory(args.trajectory)
    else:
        session = load_session(args.session)
    for problem in session.problems:
        err(f"fleet-tui: {args.session}: {problem}")
    recorded = session.connect()
    if not has_target(args):  # the env the session was recorded on, or the task's
        if recorded and isinstance(recorded.target, InstanceTarget):
            args.env_key = recorded.target.env_key
        elif task is not None and task.env_key:
            args.env_key = task.env_key
        elif args.trajectory is not None:
            raise EnvError("--trajectory needs a target to replay on (ENV_KEY, --mcp, ...)")
    base = target_from_args(args)

    notes = latest_notes(session)

    def show(step) -> None:
        if not args.json:
            for line in step_lines(step):
                out(line)
            if (note := notes.get(step.seq)) is not None:
                out(f"          {note_line(note)}")

    async def main():
        async with shared_host(base) as target, connected(target) as env:
            tools = None
            if args.trajectory is not None:
                tools = [tool.name for tool in await env.list_tools()]
                map_tool_names(session, tools)

            async def verify(verified):
                return await run_verifier(
                    env, verified, mode=args.verifier_mode, timeout_s=args.timeout
                )

            return await replay_session(
                session,
                env,
                verify=None if args.no_verify else verify,
                task=task,
                ignore_keys=args.ignore_key,
                on_step=show,
                transcript=args.trajectory is not None,
                tools=tools,
            )

    return print_report(asyncio.run(main()), replay_summary, args.json)


def play(args: argparse.Namespace) -> int:
    """The app on the recorded session, played back (`ui/playback.py`); nothing is recorded."""
    from fleet_tui.envs.base import EnvError
    from fleet_tui.envs.targets import McpTarget
    from fleet_tui.session.reader import load_session
    from fleet_tui.ui.loading import load_app

    if args.session is None:
        raise EnvError("--play plays a recorded session back: give its file, not --trajectory")
    recorded = load_session(args.session).connect()
    target = recorded.target if recorded and recorded.target else McpTarget(urls=["playback"])
    args.play_session, args.no_record = args.session, True
    args.session = None  # not opened in the session browser: it is what plays
    return load_app()(target, args)


def chosen_task(path: str | None, key: str | None) -> Task | None:
    """The task `--tasks FILE` (and `--task KEY`, needed when the file holds several) names."""
    from fleet_tui.envs.base import EnvError
    from fleet_tui.tasks.files import load_tasks

    if path is None:
        if key is not None:
            raise EnvError("--task KEY names a task of --tasks FILE: add --tasks")
        return None
    tasks = load_tasks(path)
    if key is None:
        if len(tasks) != 1:
            keys = ", ".join(task.key for task in tasks[:5]) + (", ..." if len(tasks) > 5 else "")
            raise EnvError(f"{path} holds {len(tasks)} tasks: name one with --task ({keys})")
        return tasks[0]
    found = next((task for task in tasks if task.key == key), None)
    if found is None:
        raise EnvError(f"no task {key} in {path}")
    return found


def replay_summary(report) -> str:
    from fleet_tui.session.replay import unmade_line

    matched = sum(step.matched for step in report.steps)
    lines = [f"{matched}/{len(report.steps)} steps match"]
    if unrecorded := sum(step.unrecorded for step in report.steps):
        lines.append(f"{unrecorded} with no record (no answer to compare with)")
    if report.not_replayed:
        lines.append(
            f"{report.not_replayed} resource reads and prompt gets not replayed "
            "(they change nothing in the env)"
        )
    if report.unmade:
        lines.append(f"{counted(report.unmade, 'call')} never made, not replayed:")
        lines += [f"  {unmade_line(call)}" for call in report.unmade_calls]
    if report.verdict is not None:
        verdict = report.verdict
        if verdict.success:
            outcome = "PASS" if verdict.passed else "FAIL"
            lines.append(f"verifier ({report.task_key}): {outcome}, score {verdict.score}")
        else:
            lines.append(
                f"verifier ({report.task_key}): {verdict.error_type}: {verdict.error_message}"
            )
    elif report.task_key is None:
        lines.append("no task in the session: nothing to verify (--tasks FILE names one)")
    return "\n".join(lines)
