"""The default command: open the Textual app on a target."""

from __future__ import annotations

import argparse

from fleet_tui.targets import add_target_arguments, target_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)


def run(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    from fleet_tui.ui.app import run_app

    return run_app(target, args)
