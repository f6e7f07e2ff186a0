"""`fleet-tui read TARGET URI [--save-media DIR]`: read one resource and print its contents
(binary contents written to files); exit code 1 when the server refuses."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.blocks_output import add_media_option, block_json, print_block
from fleet_tui.commands.client_options import add_protocol_argument
from fleet_tui.commands.output import Output
from fleet_tui.commands.resources import need_catalog
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController

INTERMIXED = True
"""Options may come between the positionals (ENV_KEY and the name)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    add_protocol_argument(parser)
    parser.add_argument("uri", metavar="URI", help="the resource to read")
    add_media_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session

    out = Output(json=args.json)

    async def work(session: SessionController, out: Output) -> int:
        need_catalog(session)
        result = await session.read_resource(args.uri)
        files = BlockFiles(args.save_media, args.uri.rsplit("/", 1)[-1] or "resource")
        if out.json:
            out.print_json(
                {
                    "uri": result.uri,
                    "endpoint": result.endpoint,
                    "contents": [block_json(i, c, files) for i, c in enumerate(result.contents)],
                    "latency_s": round(result.latency_s, 4),
                }
            )
        else:
            for index, content in enumerate(result.contents):
                print_block(out, index, content, files)
        return 0

    return run_on_session(SessionCommand(target_from_args(args), work, list_tools=False), out)
