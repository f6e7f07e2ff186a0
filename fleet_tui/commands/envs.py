"""`fleet-tui envs [--local | --base-url URL]`: the envs a Fleet host offers."""

from __future__ import annotations

import argparse
import asyncio
import os

from fleet_tui.commands.output import out, print_json, table
from fleet_tui.envs.base import EnvError
from fleet_tui.text import one_line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--local", action="store_true", help="the embedded local Fleet host (no API key)"
    )
    where.add_argument("--base-url", metavar="URL", help="another Fleet-compatible host")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.target_options import check_fleet_host

    api_key = os.environ.get("FLEET_API_KEY") or None
    if not args.local:
        check_fleet_host(args.base_url, api_key)
    return asyncio.run(list_envs(args, api_key))


async def list_envs(args: argparse.Namespace, api_key: str | None) -> int:
    from fleet_tui.envs.fleet import fleet_client, sdk_error_text

    host = None
    base_url = args.base_url
    if args.local:
        from fleet_tui.local.runner import start_local_host

        host = await asyncio.to_thread(start_local_host)
        base_url, api_key = host.base_url, host.token
    try:
        client = fleet_client(base_url, api_key)
        try:
            envs = await client.list_envs()
        except Exception as error:
            where = "the embedded host" if args.local else base_url or "the Fleet cloud"
            raise EnvError(f"cannot list the envs of {where}: {sdk_error_text(error)}") from None
    finally:
        if host is not None:
            await asyncio.to_thread(host.stop)
    if args.json:
        print_json([env.model_dump(mode="json") for env in envs])
        return 0
    rows = [
        [
            env.env_key,
            env.default_version or "",
            ", ".join(sorted(env.versions)),
            one_line(env.description or env.name or "", 80),
        ]
        for env in envs
    ]
    out(table(rows, ["ENV", "DEFAULT", "VERSIONS", "DESCRIPTION"]))
    return 0
