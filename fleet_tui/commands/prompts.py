"""`fleet-tui prompts TARGET`: the prompts of a target's MCP servers and their arguments
(`*` marks a required one)."""

from __future__ import annotations

import argparse

from fleet_tui.commands.output import out, print_json, table, warn
from fleet_tui.commands.resources import catalog_of, listing_arguments
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import Env
from fleet_tui.text import counted, one_line, visible

add_arguments = listing_arguments


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_env

    async def work(env: Env) -> int:
        prompts = await catalog_of(env).prompts()
        if args.json:
            print_json(
                {
                    "prompts": [p.model_dump(mode="json") for p in prompts.items],
                    "warnings": prompts.warnings,
                }
            )
            return 0
        for warning in prompts.warnings:
            warn(warning)
        rows = [
            [
                visible(p.name),
                " ".join(visible(a.name) + ("*" if a.required else "") for a in p.arguments),
                one_line(p.description or "", 60),
            ]
            for p in prompts.items
        ]
        if rows:
            out(table(rows, ["PROMPT", "ARGUMENTS", "DESCRIPTION"]))
            out()
        out(counted(len(prompts.items), "prompt"))
        return 0

    return run_on_env(target_from_args(args), work)
