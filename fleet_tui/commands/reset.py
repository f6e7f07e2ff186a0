"""`fleet-tui reset TARGET [--seed N]`: restore the env's seed state, or start a new episode.

An OpenEnv session opens with a reset: that one, with the seed asked for, is the reset made
(exactly one per command), and its observation is printed.
"""

from __future__ import annotations

import argparse

from fleet_tui.commands.blocks_output import add_media_option, print_block
from fleet_tui.commands.output import err, out, print_json
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import Env, ResetResult
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--seed", type=int, metavar="N", help="seed for the reset")
    add_media_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_env

    target = target_from_args(args)
    opening_seed = {"seed": args.seed} if isinstance(target, OpenEnvTarget) else {}

    async def work(env: Env) -> int:
        result = opening_reset(env) or await env.reset(seed=args.seed)
        if args.json:
            print_json({"instance_id": env.info.instance_id, **result.model_dump(mode="json")})
        else:
            out(f"reset {'ok' if result.success else 'FAILED'}: {result.message}")
            if result.result is not None:
                files = BlockFiles(args.save_media, "reset")
                for index, block in enumerate(result.result.blocks):
                    print_block(index, block, files)
        if not result.success:
            err("fleet-tui: the reset failed")
            return 1
        return 0

    return run_on_env(target, work, env_options=opening_seed)


def opening_reset(env: Env) -> ResetResult | None:
    """The reset an episodic env opened its session with, while no step followed it."""
    from fleet_tui.envs.capabilities import Episodic

    if isinstance(env, Episodic) and not env.stepped:
        return env.last_reset
    return None
