"""`fleet-tui prompt TARGET NAME [-a key=value ...]`: get one prompt with its arguments and
print its messages. Required arguments are checked before asking; an unknown prompt is a plain
error (exit code 2), the server's refusal exit code 1."""

from __future__ import annotations

import argparse

from fleet_tui.commands.blocks_output import add_media_option, block_json, print_block
from fleet_tui.commands.output import out, print_json
from fleet_tui.commands.resources import catalog_of
from fleet_tui.commands.target_options import add_repeatable, target_from_args
from fleet_tui.envs.base import Env
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments, key_value

INTERMIXED = True
"""Options may come between the positionals (ENV_KEY and the name)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("name", metavar="NAME", help="the prompt to get")
    add_repeatable(
        parser, "-a", dest="pairs", metavar="KEY=VALUE", help="one argument (repeatable)"
    )
    add_media_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_env

    arguments = dict(key_value(pair, "-a") for pair in args.pairs)
    target = target_from_args(args)

    async def work(env: Env) -> int:
        result = await catalog_of(env).get_prompt(args.name, arguments)
        files = BlockFiles(args.save_media, args.name)
        if args.json:
            print_json(
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
            out(f"# {result.description}")
        for index, message in enumerate(result.messages):
            out(f"[{message.role}]")
            print_block(index, message.block, files)
        return 0

    return run_on_env(target, work)
