"""`fleet-tui state --openenv URL [--json]`: an OpenEnv server's metadata and schemas, and the
state of a session as anything else meets it: opened, reset once (`--seed N`), then `state`."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from fleet_tui.big_json import compact_json
from fleet_tui.commands.blocks_output import print_text
from fleet_tui.commands.output import out, print_json
from fleet_tui.commands.reset import opening_reset
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import Env, EnvError, TextBlock
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import visible


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--seed", type=int, metavar="N", help="seed for the session's reset")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_env

    target = target_from_args(args)
    if not isinstance(target, OpenEnvTarget):
        raise EnvError("state shows an OpenEnv server's state: give --openenv URL")

    async def work(env: Env) -> int:
        from fleet_tui.envs.openenv import OpenEnvEnv

        assert isinstance(env, OpenEnvEnv)
        reset = opening_reset(env)
        report = {
            **await description(env),
            "reset": reset.model_dump(mode="json") if reset is not None else None,
            "state": await env.state(),
            "task_environments": await env.task_environments(),
        }
        if args.json:
            print_json(report)
        else:
            print_report(report)
        return 0

    return run_on_env(target, work, env_options={"seed": args.seed})


async def description(env: Env) -> dict[str, Any]:
    """`metadata` and `schema` of an env that describes itself; None for what it does not
    serve (or for an env that does not describe itself)."""
    from fleet_tui.envs.capabilities import DescribesItself

    report: dict[str, Any] = {"metadata": None, "schema": None}
    if isinstance(env, DescribesItself):
        for name, fetch in (("metadata", env.metadata), ("schema", env.schema)):
            with contextlib.suppress(EnvError):  # a server that does not serve it
                report[name] = await fetch()
    return report


def description_lines(report: dict[str, Any]) -> list[str]:
    """The name, version and description from `metadata`; the fields of each schema."""
    lines = []
    metadata = report.get("metadata")
    if isinstance(metadata, dict):
        lines.append(
            visible(f"{metadata.get('name', '?')} {metadata.get('version') or ''}".rstrip())
        )
        if metadata.get("description"):
            lines.append(visible(str(metadata["description"])))
    schemas = report.get("schema")
    for kind in ("action", "observation", "state"):
        schema = (schemas.get(kind) if isinstance(schemas, dict) else None) or {}
        if schema:
            fields = ", ".join(map(visible, schema.get("properties", {}))) or "-"
            lines.append(f"{kind} ({visible(str(schema.get('title', '?')))}): {fields}")
    return lines


def print_report(report: dict[str, Any]) -> None:
    for line in description_lines(report):
        out(line)
    if report["task_environments"]:
        out(f"task environments: {', '.join(map(visible, report['task_environments']))}")
    if report["reset"] is not None:
        out(f"session opened with: {visible(report['reset']['message'])}")
    out("session state:")
    # by shape, as an observation is shown: a board as rows, long text as text
    print_text(0, TextBlock(text=compact_json(report["state"])), BlockFiles(None, "state"))
