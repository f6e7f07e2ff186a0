"""`fleet-tui prompts TARGET`: the prompts of a target's MCP servers and their arguments
(`*` marks a required one)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.output import Output, table
from fleet_tui.commands.resources import listing_arguments, need_catalog
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.text import counted, one_line, visible

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController

add_arguments = listing_arguments


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session

    out = Output(json=args.json)
    return run_on_session(
        SessionCommand(target_from_args(args), show_prompts, list_tools=False), out
    )


async def show_prompts(session: SessionController, out: Output) -> int:
    need_catalog(session)
    prompts = await session.list_prompts()
    if out.json:
        out.print_json(
            {
                "prompts": [p.model_dump(mode="json") for p in prompts.items],
                "warnings": prompts.warnings,
            }
        )
        return 0
    for warning in prompts.warnings:
        out.warn(warning)
    rows = [
        [
            visible(p.name),
            " ".join(visible(a.name) + ("*" if a.required else "") for a in p.arguments),
            one_line(p.description or "", 60),
        ]
        for p in prompts.items
    ]
    if rows:
        out.out(table(rows, ["PROMPT", "ARGUMENTS", "DESCRIPTION"]))
        out.out()
    out.out(counted(len(prompts.items), "prompt"))
    return 0
