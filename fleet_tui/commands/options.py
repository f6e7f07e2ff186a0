"""What several headless commands share: the verifier options, `--ignore-key`, and printing a
report as JSON or as a summary."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from fleet_tui.commands.output import out, print_json
from fleet_tui.commands.target_options import add_repeatable
from fleet_tui.tasks.local_verify import DEFAULT_TIMEOUT_S
from fleet_tui.tasks.verify import VERIFIER_MODES


def add_verifier_arguments(parser: argparse.ArgumentParser) -> None:
    """`--verifier-mode` and `--timeout`."""
    parser.add_argument(
        "--verifier-mode",
        choices=VERIFIER_MODES,
        default="remote",
        help="run verifiers through the host (remote) or on this machine",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help="verifier time limit",
    )


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds above zero (a zero limit would fail every run)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be above 0")
    return seconds


def add_ignore_key_argument(parser: argparse.ArgumentParser) -> None:
    add_repeatable(
        parser,
        "--ignore-key",
        metavar="KEY",
        help="JSON key left out when comparing replayed results (repeatable)",
    )


def print_report(report: Any, summary: Callable[[Any], str], as_json: bool) -> int:
    """Print `report` (a pydantic model with `ok`) as JSON or as its summary (cleaned: task
    files and sessions are untrusted text); the exit code."""
    if as_json:
        print_json(report.model_dump(mode="json"))
    else:
        out(summary(report))
    return 0 if report.ok else 1
