"""`fleet-tui state --openenv URL [--json]`: an OpenEnv server's metadata, schemas and the
state of a fresh session (opened without a reset, so nothing is changed)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from fleet_tui.commands.output import err, out, print_json
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import pretty_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    if not isinstance(target, OpenEnvTarget):
        raise EnvError("state shows an OpenEnv server's state: give --openenv URL")
    from fleet_tui.envs.openenv import OpenEnvEnv

    async def work() -> int:
        env = OpenEnvEnv(target, reset_on_connect=False)
        try:
            await env.connect(progress=err)
            report = {
                "metadata": await env.metadata(),
                "schema": await env.schema(),
                "state": await env.state(),
                "task_environments": await env.task_environments(),
            }
        finally:
            await env.close()
        if args.json:
            print_json(report)
        else:
            print_report(report)
        return 0

    return asyncio.run(work())


def print_report(report: dict[str, Any]) -> None:
    metadata = report["metadata"]
    out(f"{metadata.get('name', '?')} {metadata.get('version') or ''}".rstrip())
    if metadata.get("description"):
        out(metadata["description"])
    if report["task_environments"]:
        out(f"task environments: {', '.join(report['task_environments'])}")
    for kind in ("action", "observation", "state"):
        schema = report["schema"].get(kind) or {}
        fields = ", ".join(schema.get("properties", {})) or "-"
        out(f"{kind} ({schema.get('title', '?')}): {fields}")
    out("session state (no reset):")
    out(pretty_json(report["state"]))
