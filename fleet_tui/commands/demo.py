"""`fleet-tui demo`: the app on the bundled computer-use env, through the embedded host, with
its bundled tasks (f6 picks one, f8 runs its verifier) and a hint of what to try first."""

from __future__ import annotations

import argparse

from fleet_tui.commands.app import (
    add_agent_arguments,
    add_image_backend_argument,
    add_record_arguments,
    check_agent_arguments,
    require_terminal,
)

DEMO_ENV = "desktop-todo"
FIRST_HINT = (
    "Try: f6 picks a task, a click on the picture fills the computer form, "
    "ctrl+s sends it, f8 runs the task's verifier"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep", action="store_true", help="leave the instance running on exit (prints its id)"
    )
    add_image_backend_argument(parser)
    add_record_arguments(parser)
    add_agent_arguments(parser)


def run(args: argparse.Namespace) -> int:
    check_agent_arguments(args)
    require_terminal()
    from fleet_tui.envs.targets import LocalTarget
    from fleet_tui.local import bundled_task_files
    from fleet_tui.ui.loading import load_app

    args.tasks = str(bundled_task_files()[DEMO_ENV])
    args.first_hint = FIRST_HINT
    return load_app()(LocalTarget(env_key=DEMO_ENV, keep=args.keep), args)
