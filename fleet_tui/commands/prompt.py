"""`fleet-tui prompt TARGET NAME [-a key=value ...]`: get one prompt with its arguments and
print its messages. Required arguments are checked before asking; an unknown prompt is a plain
error (exit code 2), the server's refusal exit code 1."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.blocks_output import add_media_option, block_json, print_block
from fleet_tui.commands.client_options import add_protocol_argument
from fleet_tui.commands.output import Output
from fleet_tui.commands.resources import need_catalog
from fleet_tui.commands.target_options import add_repeatable, target_from_args
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments, key_value

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController

INTERMIXED = True
"""Options may come between the positionals (ENV_KEY and the name)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    add_protocol_argument(parser)
    parser.add_argument("name", metavar="NAME", help="the prompt to get")
    add_repeatable(
        parser, "-a", dest="pairs", metavar="KEY=VALUE", help="one argument (repeatable)"
    )
    add_media_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session

    arguments = dict(key_value(pair, "-a") for pair in args.pairs)
    out = Output(json=args.json)

    async def work(session: SessionController, out: Output) -> int:
        need_catalog(session)
        result = await session.get_prompt(args.name, arguments)
        files = BlockFiles(args.save_media, args.name)
        if out.json:
            out.print_json(
                {
                    "prompt": result.name,
                    "description": result.description,
                    "endpoint": result.endpoint,
                    "messages": [
                        {"role": m.role, "content": block_json(i, m.block, files)}
                        for i, m in enumerate(result.messages)
                    ],
                }
            )
            return 0
        if result.description:
            out.out(f"# {result.description}")
        for index, message in enumerate(result.messages):
            out.out(f"[{message.role}]")
            print_block(out, index, message.block, files)
        return 0

    return run_on_session(SessionCommand(target_from_args(args), work, list_tools=False), out)
