"""Command-line entry point: `fleet-tui [TARGET]` opens the app; `fleet-tui COMMAND ...` runs
a headless command (the registry: `fleet_tui/commands/__init__.py`), or has a warm-session
daemon run it (`fleet_tui/warm/client.py`). Only the forwarding is imported up front: a command
a warm session runs loads nothing else."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from fleet_tui.warm.client import forward

if TYPE_CHECKING:
    import argparse


def build_app_parser() -> argparse.ArgumentParser:
    import argparse

    from fleet_tui import __version__
    from fleet_tui.commands import COMMANDS
    from fleet_tui.commands import app as app_command

    commands = "\n".join(f"  {name:<8} {help}" for name, help in COMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="fleet-tui",
        description="Explore and debug RL environments: Fleet, OpenEnv and MCP.",
        epilog=f"commands (fleet-tui COMMAND --help):\n{commands}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"fleet-tui {__version__}")
    app_command.add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if (code := _run_warm(argv)) is not None:
        return code
    from fleet_tui.collector import loading_modules

    with loading_modules():  # the command's modules, kept out of the collector's walks
        from fleet_tui.commands import COMMANDS, command_module, command_parser, run_command
        from fleet_tui.envs.mcp_import import defer_wire_schemas, load_client_modules_only

        if argv and argv[0] in COMMANDS:
            name, rest = argv[0], argv[1:]
            parser: argparse.ArgumentParser = command_parser(name)
            module = command_module(name)
        else:
            rest, parser, module = argv, build_app_parser(), command_module("app")
    args = parser.parse_args(rest)  # `--help` ends here, with nothing of the SDK loaded
    load_client_modules_only()  # the mcp SDK's client, without its server code
    defer_wire_schemas()  # its protocol models' validators built when first used
    return run_command(module, args)


def run() -> NoReturn:
    """The program (`fleet-tui`, `python -m fleet_tui`): `main`, then the process ends without
    freeing what its modules hold (`process_end.py`)."""
    from fleet_tui.process_end import end

    end(main())


def _run_warm(argv: list[str]) -> int | None:
    """The exit code of `argv` run by a warm-session daemon, or None when none serves it."""
    try:
        return forward(argv)
    except KeyboardInterrupt:
        print("fleet-tui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        from fleet_tui.commands import stdout_closed

        return stdout_closed()


if __name__ == "__main__":
    run()
