"""The default command: open the Textual app on a target."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from fleet_tui.commands.client_options import (
    add_protocol_argument,
    add_root_argument,
    add_timeout_argument,
    roots_from_args,
)
from fleet_tui.commands.local import token_text
from fleet_tui.commands.target_options import checked_target_fields, has_target, target_of
from fleet_tui.envs.errors import EnvError
from fleet_tui.target_argv import add_target_arguments

IMAGE_BACKENDS = ("auto", "kitty", "sixel", "halfcell", "unicode")
PROXY_TOKEN_ENV_VAR = "FLEET_TUI_PROXY_TOKEN"

USAGE = """\
usage: fleet-tui demo                  try it on the bundled computer-use env, with its tasks
       fleet-tui ENV_KEY --local       an env of the embedded local host ({local_envs})
       fleet-tui ENV_KEY               a Fleet env (set FLEET_API_KEY)
       fleet-tui --mcp URL | --stdio COMMAND | --openenv URL
       fleet-tui COMMAND ...           a command without the app (fleet-tui --help lists them)"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    add_root_argument(parser)
    add_protocol_argument(parser)
    add_timeout_argument(parser)
    add_image_backend_argument(parser)
    add_task_arguments(parser)
    add_agent_arguments(parser)


def add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    agent = parser.add_argument_group("watching an agent")
    agent.add_argument(
        "--serve-mcp",
        nargs="?",
        const=0,
        type=int,
        metavar="PORT",
        help="also serve the env's tools to an agent as MCP on 127.0.0.1 (default port: free)",
    )
    add_gate_arguments(agent, "with --serve-mcp: ")
    add_expose_reset_argument(agent, "with --serve-mcp: ")


def add_gate_arguments(parser: Any, prefix: str = "") -> None:
    """What holds the agent's calls (`--break`, `--hold-limit`) and the token it sends."""
    parser.add_argument(
        "--break",
        dest="breakpoints",
        action="append",
        default=[],
        metavar="SPEC",
        help=f"{prefix}hold the agent before a call to TOOL, or TOOL KEY=VALUE (repeatable)",
    )
    parser.add_argument(
        "--hold-limit",
        type=positive_seconds,
        metavar="SECONDS",
        help=f"{prefix}answer an agent's call held longer than SECONDS with an error it reads "
        "(default: no limit)",
    )
    parser.add_argument(
        "--token",
        type=token_text,
        default=os.environ.get(PROXY_TOKEN_ENV_VAR) or None,
        help=f"{prefix}the token agents send as `Authorization: Bearer <token>` "
        f"(default: ${PROXY_TOKEN_ENV_VAR}, else a random one)",
    )


def positive_seconds(text: str) -> float:
    """A positive number of seconds, for argparse."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return seconds


def add_expose_reset_argument(parser: Any, prefix: str = "") -> None:
    """`--expose-reset`: the agent gets a `reset` tool (rollout workers start episodes)."""
    parser.add_argument(
        "--expose-reset",
        action="store_true",
        help=f"{prefix}add a `reset` tool for the agent (optional `seed` and the env's reset "
        "keywords), recorded like your own resets; it hides an env tool named `reset`",
    )


def add_image_backend_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--image-backend",
        choices=IMAGE_BACKENDS,
        help="how images are drawn (default: auto-detect; or set FLEET_TUI_IMAGE_BACKEND)",
    )


def add_task_arguments(parser: argparse.ArgumentParser) -> None:
    tasks = parser.add_argument_group("tasks and sessions")
    tasks.add_argument("--tasks", metavar="FILE", help="a Fleet task file to browse and start")
    tasks.add_argument(
        "--verifier-mode",
        choices=("remote", "local"),
        default="remote",
        help="run verifiers through the host (remote) or on this machine (local)",
    )
    tasks.add_argument(
        "--verifier", metavar="FILE.py", help="an ad-hoc verifier, read again on every run"
    )
    tasks.add_argument(
        "--verifier-timeout",
        type=float,
        metavar="SECONDS",
        help="local verifier timeout (default 30)",
    )
    add_record_arguments(tasks)
    tasks.add_argument("--session", metavar="FILE", help="open a recorded session to browse it")
    tasks.add_argument(
        "--trajectory",
        metavar="FILE",
        help="open an agent's transcript (the forms `replay --trajectory` reads) in the "
        "Trajectory pane, to step through it on the env",
    )


def add_record_arguments(parser: Any) -> None:
    """`--record FILE` and `--no-record`."""
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="record the session here (default: a new file in the state dir)",
    )
    parser.add_argument("--no-record", action="store_true", help="do not record the session")


def check_agent_arguments(args: argparse.Namespace) -> None:
    """The options for watching an agent: each `--break` well-formed, and `--serve-mcp` given
    for those that need it."""
    if args.breakpoints:
        from fleet_tui.proxy.gate import parse_breakpoints  # the session's modules: if used

        parse_breakpoints(args.breakpoints)
    if args.breakpoints and args.serve_mcp is None:
        raise EnvError("--break holds an agent's calls: add --serve-mcp")
    if args.expose_reset and args.serve_mcp is None:
        raise EnvError("--expose-reset gives an agent a reset tool: add --serve-mcp")


def on_terminal() -> bool:
    return sys.stdout.isatty() and sys.stdin.isatty()


def require_terminal() -> None:
    """The app draws on a terminal; written into a file or a pipe it would only be escape
    codes, redrawn for ever."""
    if not on_terminal():
        raise EnvError(
            "the app needs a terminal, and stdin or stdout is not one; "
            "to run without it, use a command (fleet-tui --help lists them)"
        )


def run(args: argparse.Namespace) -> int:
    if not has_target(args):
        from fleet_tui.local import BUNDLED_ENV_KEYS

        print(USAGE.format(local_envs=", ".join(BUNDLED_ENV_KEYS)), file=sys.stderr)
        return 2
    from fleet_tui.ui.loading import app_loading

    # The terminal is probed, and the app's modules load, while the options are checked (the
    # session's load once the app's first frame is drawn).
    with app_loading(probe=on_terminal()):
        args.roots = roots_from_args(args)
        fields = checked_target_fields(args)  # the Target (pydantic's models) after the first frame
        check_agent_arguments(args)
        if getattr(args, "trajectory", None):
            from fleet_tui.session.trajectory import load_trajectory

            load_trajectory(args.trajectory)  # a transcript it cannot read: refused first
        require_terminal()
        from fleet_tui.ui.run import run_app
    return run_app(lambda: target_of(fields), args)
