"""`fleet-tui resources TARGET`: the resources and resource templates of a target's MCP
servers, each with the endpoint that serves it."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.client_options import add_protocol_argument
from fleet_tui.commands.output import Output, table
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.commands.wire_names import wire
from fleet_tui.envs.base import EnvError
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import one_line, visible

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController

URI_LIMIT = 120
"""The URI column is wider than other tables' (a URI is what `read` takes); past it, `--json`."""


def listing_arguments(parser: argparse.ArgumentParser) -> None:
    """The target, `--protocol` and `--json` (shared with `prompts`)."""
    add_target_arguments(parser)
    add_protocol_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


add_arguments = listing_arguments


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session

    out = Output(json=args.json)
    return run_on_session(
        SessionCommand(target_from_args(args), show_resources, list_tools=False), out
    )


async def show_resources(session: SessionController, out: Output) -> int:
    need_catalog(session)
    resources, templates = await session.list_resources()
    warnings = resources.warnings + templates.warnings
    if out.json:
        out.print_json(
            {
                "resources": [wire(r.model_dump(mode="json")) for r in resources.items],
                "templates": [wire(t.model_dump(mode="json")) for t in templates.items],
                "warnings": warnings,
            }
        )
        return 0
    for warning in warnings:
        out.warn(warning)
    if resources.items:
        rows = [
            [visible(r.uri), visible(r.mime_type or ""), one_line(r.name, 30)]
            for r in resources.items
        ]
        out.out(table(rows, ["URI", "TYPE", "NAME"], column_limit=URI_LIMIT))
        out.out()
    if templates.items:
        rows = [
            [visible(t.uri_template), one_line(t.description or t.name, 60)]
            for t in templates.items
        ]
        out.out(table(rows, ["TEMPLATE", "DESCRIPTION"]))
        out.out()
    out.out(f"{len(resources.items)} resources, {len(templates.items)} templates")
    return 0


def need_catalog(session: SessionController) -> None:
    """EnvError (exit 2) for a session whose env does not speak MCP: it has no resources or
    prompts."""
    if not session.can_list_catalog:
        raise EnvError(f"a {session.info.kind} target serves no MCP resources or prompts")
