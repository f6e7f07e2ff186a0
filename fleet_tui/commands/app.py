"""The default command: open the Textual app on a target."""

from __future__ import annotations

import argparse

from fleet_tui.targets import add_target_arguments, target_from_args

IMAGE_BACKENDS = ("auto", "kitty", "sixel", "halfcell", "unicode")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument(
        "--image-backend",
        choices=IMAGE_BACKENDS,
        help="how images are drawn (default: auto-detect; or set FLEET_TUI_IMAGE_BACKEND)",
    )


def run(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    from fleet_tui.ui.app import run_app

    return run_app(target, args)
