"""Command-line entry point: `fleet-tui [TARGET]` opens the app; `fleet-tui COMMAND ...` runs
a headless command.

Each headless command lives in `fleet_tui/commands/<name>.py` and exposes
`add_arguments(parser)` and `run(args) -> int`. Command modules import their heavy
dependencies inside `run`, and none of them imports `fleet_tui.ui`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from fleet_tui import __version__
from fleet_tui.envs.errors import EnvError

COMMANDS: dict[str, str] = {
    "envs": "list the envs a Fleet host offers",
    "tools": "list the union of MCP tools of a target",
    "call": "call one tool and print its result",
    "resources": "list the MCP resources and resource templates of a target",
    "read": "read one MCP resource and print its contents",
    "prompts": "list the MCP prompts of a target",
    "prompt": "get one MCP prompt with its arguments and print its messages",
    "info": "show each MCP server's name, version, capabilities and instructions",
    "reset": "reset the env",
    "verify": "run a task's verifier",
    "tasks": "list the tasks of an OpenEnv server",
    "state": "show an OpenEnv server's metadata, schema and session state",
    "check": "check task files: verifiers fail untouched and pass with gold sessions",
    "warm": "list or stop the warm sessions --keep-warm left running",
    "proxy": "serve a target's tools to an agent as one MCP endpoint, printing each call",
    "replay": "re-run a recorded session on a fresh env and compare results",
    "logout": "forget the OAuth sign-ins kept for MCP servers",
    "local": "run the embedded local Fleet host",
    "openenv": "serve an env `openenv import` generated (ORS, Verifiers) on 127.0.0.1",
    "demo": "open the app on the bundled computer-use env (embedded host)",
}


def _command_module(name: str):
    return importlib.import_module(f"fleet_tui.commands.{name}")


def build_command_parser(name: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"fleet-tui {name}", description=COMMANDS[name])
    _command_module(name).add_arguments(parser)
    return parser


def build_app_parser() -> argparse.ArgumentParser:
    from fleet_tui.commands import app

    commands = "\n".join(f"  {name:<8} {help}" for name, help in COMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="fleet-tui",
        description="Explore and debug RL environments: Fleet, OpenEnv and MCP.",
        epilog=f"commands (fleet-tui COMMAND --help):\n{commands}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"fleet-tui {__version__}")
    app.add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if (code := _run_warm(argv)) is not None:
        return code
    if argv and argv[0] in COMMANDS:
        name, rest = argv[0], argv[1:]
        parser = build_command_parser(name)
        module = _command_module(name)
    else:
        rest = argv
        parser = build_app_parser()
        from fleet_tui.commands import app as module
    return run_command(module, parser.parse_args(rest))


def run_command(module: ModuleType, args: argparse.Namespace) -> int:
    """Run a command's `run(args)`: its exit code, or an error's on stderr."""
    try:
        return int(module.run(args) or 0)
    except EnvError as error:
        from fleet_tui.commands.output import err

        err(f"fleet-tui: {error.message}")
        return error.exit_code
    except KeyboardInterrupt:
        print("fleet-tui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _stdout_closed()


def _run_warm(argv: list[str]) -> int | None:
    """The exit code of `argv` run by a warm-session daemon, or None when none serves it."""
    from fleet_tui.warm.client import forward

    try:
        return forward(argv)
    except KeyboardInterrupt:
        print("fleet-tui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _stdout_closed()


def _stdout_closed() -> int:
    """The reader of stdout went away (`fleet-tui ... | head`): end quietly like other
    command-line tools, with 128 + SIGPIPE. Python would complain flushing stdout at exit, so
    point it at /dev/null first."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


if __name__ == "__main__":
    raise SystemExit(main())
