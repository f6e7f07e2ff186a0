"""`fleet-tui resources TARGET`: the resources and resource templates of a target's MCP
servers, each with the endpoint that serves it."""

from __future__ import annotations

import argparse

from fleet_tui.commands.output import out, print_json, table, warn
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import Env, EnvError
from fleet_tui.envs.mcp_catalog import McpCatalog
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import one_line, visible

URI_LIMIT = 120
"""The URI column is wider than other tables' (a URI is what `read` takes); past it, `--json`."""


def listing_arguments(parser: argparse.ArgumentParser) -> None:
    """The target and `--json` (shared with `prompts`)."""
    add_target_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


add_arguments = listing_arguments


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_env

    async def work(env: Env) -> int:
        catalog = catalog_of(env)
        resources = await catalog.resources()
        templates = await catalog.templates()
        warnings = resources.warnings + templates.warnings
        if args.json:
            print_json(
                {
                    "resources": [r.model_dump(mode="json") for r in resources.items],
                    "templates": [t.model_dump(mode="json") for t in templates.items],
                    "warnings": warnings,
                }
            )
            return 0
        for warning in warnings:
            warn(warning)
        if resources.items:
            rows = [
                [visible(r.uri), visible(r.mime_type or ""), one_line(r.name, 30)]
                for r in resources.items
            ]
            out(table(rows, ["URI", "TYPE", "NAME"], column_limit=URI_LIMIT))
            out()
        if templates.items:
            rows = [
                [visible(t.uri_template), one_line(t.description or t.name, 60)]
                for t in templates.items
            ]
            out(table(rows, ["TEMPLATE", "DESCRIPTION"]))
            out()
        out(f"{len(resources.items)} resources, {len(templates.items)} templates")
        return 0

    return run_on_env(target_from_args(args), work)


def catalog_of(env: Env) -> McpCatalog:
    """The env's resources and prompts; EnvError (exit 2) for an env that does not speak MCP."""
    from fleet_tui.envs.capabilities import ServesCatalog

    if not isinstance(env, ServesCatalog):
        raise EnvError(f"a {env.info.kind} target serves no MCP resources or prompts")
    return env.catalog()
