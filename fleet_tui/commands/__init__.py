"""The headless commands: their registry (`COMMANDS`), each one's parser, and running one.

Each command lives in `fleet_tui/commands/<name>.py` and exposes `add_arguments(parser)` and
`run(args) -> int` (and `INTERMIXED = True` when its positionals may come between options).
Command modules import their heavy dependencies inside `run`, and none of them imports
`fleet_tui.ui`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType

from fleet_tui.commands.command_parser import CommandParser
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
    "diff": "compare two servers' tools, resources and prompts (exit 1 when they differ)",
    "reset": "reset the env",
    "verify": "run a task's verifier",
    "tasks": "list the tasks of an OpenEnv server",
    "state": "show an OpenEnv server's metadata, schema and session state",
    "check": "check task files: verifiers fail untouched and pass with gold sessions",
    "warm": "list or stop the warm sessions --keep-warm left running",
    "proxy": "serve a target's tools to an agent as one MCP endpoint, printing each call",
    "replay": "re-run a recorded session on a fresh env and compare results",
    "export": "write a recorded session as one web page that opens offline",
    "logout": "forget the OAuth sign-ins kept for MCP servers",
    "local": "run the embedded local Fleet host",
    "openenv": "serve an env `openenv import` generated (ORS, Verifiers) on 127.0.0.1",
    "demo": "open the app on the bundled computer-use env (embedded host)",
}


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"fleet_tui.commands.{name}")


def command_parser(name: str, *, forwarded: bool = False) -> CommandParser:
    """The command's parser; `forwarded` (a warm-session daemon's): it prints nothing, has no
    `--help`, and raises ParseError where it would exit."""
    module = command_module(name)
    intermixed = getattr(module, "INTERMIXED", False)
    parser = CommandParser(
        prog=f"fleet-tui {name}",
        description=COMMANDS[name],
        intermixed=intermixed,
        add_help=not forwarded,
        exit_on_error=not forwarded,
    )
    module.add_arguments(parser)
    return parser


def run_command(module: ModuleType, args: argparse.Namespace) -> int:
    """Run a command's `run(args)`, its connections on the `--protocol` chosen: its exit code,
    or an error's on stderr."""
    from fleet_tui.envs.protocol_revision import DEFAULT_PROTOCOL, speaking

    try:
        with speaking(getattr(args, "protocol", DEFAULT_PROTOCOL)):
            return int(module.run(args) or 0)
    except EnvError as error:
        from fleet_tui.commands.output import Output

        return Output().failure(error)
    except KeyboardInterrupt:
        print("fleet-tui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return stdout_closed()


def stdout_closed() -> int:
    """The reader of stdout went away (`fleet-tui ... | head`): end quietly like other
    command-line tools, with 128 + SIGPIPE. Python would complain flushing stdout at exit, so
    point it at /dev/null first."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141
