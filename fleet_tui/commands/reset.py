"""`fleet-tui reset TARGET [--seed N]`: restore the env's seed state, or start a new episode.

An OpenEnv session opens with a reset: that one, with the seed asked for, is the reset made
(exactly one per command), and its observation is printed.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.blocks_output import add_media_option, print_block, result_json
from fleet_tui.commands.output import Output
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--seed", type=int, metavar="N", help="seed for the reset")
    add_media_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session

    target = target_from_args(args)
    opening_seed = {"seed": args.seed} if isinstance(target, OpenEnvTarget) else {}
    out = Output(json=args.json)

    async def work(session: SessionController, out: Output) -> int:
        result = session.opening_reset or await session.reset_env(args.seed)
        if out.json:
            files = BlockFiles(args.save_media, "reset")
            observation = result_json("<reset>", result.result, files) if result.result else None
            dumped = result.model_dump(mode="json", exclude={"result"})
            out.print_json(
                {"instance_id": session.info.instance_id, **dumped, "result": observation}
            )
        else:
            out.out(f"reset {'ok' if result.success else 'FAILED'}: {result.message}")
            if result.result is not None:
                files = BlockFiles(args.save_media, "reset")
                for index, block in enumerate(result.result.blocks):
                    print_block(out, index, block, files)
        if not result.success:
            out.err("fleet-tui: the reset failed")
            return 1
        return 0

    command = SessionCommand(target, work, env_options=opening_seed, list_tools=False)
    return run_on_session(command, out)
