"""`fleet-tui state --openenv URL [--json]`: an OpenEnv server's metadata and schemas, and the
state of a session as anything else meets it: opened, reset once (`--seed N`), then `state`."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from fleet_tui.big_json import compact_json
from fleet_tui.commands.blocks_output import print_text
from fleet_tui.commands.output import Output
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import EnvError, TextBlock
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import one_line, visible

README_MAX_LINES = 40
"""Lines of an env's README that `info` and `state` print (`--json` gives all of it)."""

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("--seed", type=int, metavar="N", help="seed for the session's reset")
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import SessionCommand, run_on_session

    target = target_from_args(args)
    if not isinstance(target, OpenEnvTarget):
        raise EnvError("state shows an OpenEnv server's state: give --openenv URL")
    out = Output(json=args.json)
    command = SessionCommand(target, show_state, env_options={"seed": args.seed}, list_tools=False)
    return run_on_session(command, out)


async def show_state(session: SessionController, out: Output) -> int:
    reset = session.opening_reset
    report = {
        **await session.description(),
        "reset": reset.model_dump(mode="json") if reset is not None else None,
        "state": await session.episode_state(),
        "task_environments": await session.task_environments(),
    }
    if out.json:
        out.print_json(report)
    else:
        print_report(out, report)
    return 0


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
        if isinstance(readme := metadata.get("readme_content"), str) and readme.strip():
            lines.extend(readme_lines(readme))
    schemas = report.get("schema")
    for kind in ("action", "observation", "state"):
        schema = (schemas.get(kind) if isinstance(schemas, dict) else None) or {}
        if schema:
            fields = ", ".join(map(visible, schema.get("properties", {}))) or "-"
            lines.append(f"{kind} ({visible(str(schema.get('title', '?')))}): {fields}")
    return lines


def readme_lines(readme: str) -> list[str]:
    """The env's README (its `/metadata` `readme_content`, which OpenEnv's web UI shows), its
    first README_MAX_LINES lines as text (terminal escapes removed, markup as typed), saying
    when it is cut."""
    lines = readme.strip().splitlines()
    shown = ["README:", *(f"  {visible(one_line(line, 200))}" for line in lines[:README_MAX_LINES])]
    if len(lines) > README_MAX_LINES:
        shown.append(f"  … {len(lines) - README_MAX_LINES} more lines (--json gives all of it)")
    return shown


def print_report(out: Output, report: dict[str, Any]) -> None:
    for line in description_lines(report):
        out.out(line)
    if report["task_environments"]:
        out.out(f"task environments: {', '.join(map(visible, report['task_environments']))}")
    if report["reset"] is not None:
        out.out(f"session opened with: {visible(report['reset']['message'])}")
    out.out("session state:")
    # by shape, as an observation is shown: a board as rows, long text as text
    print_text(out, 0, TextBlock(text=compact_json(report["state"])), BlockFiles(None, "state"))
