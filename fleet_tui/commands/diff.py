"""`fleet-tui diff TARGET_A TARGET_B [--json]`: how two servers' tools, resources, resource
templates and prompts differ (added, removed, changed: a changed schema as a diff of its JSON),
e.g. two builds of one server. A target is an MCP URL, or target options in one quoted word
(`'--stdio "python server.py"'`, `'--openenv http://…'`). Exit 0 when they are the same, 1
when they differ, 2 when one cannot be reached."""

from __future__ import annotations

import argparse
import asyncio
import shlex
from typing import Any

from fleet_tui.commands.catalog_diff import KINDS, KindDiff, diff_kind, value_diff
from fleet_tui.commands.output import out, print_json, warn
from fleet_tui.commands.wire_names import wire
from fleet_tui.envs.errors import EnvError
from fleet_tui.text import visible

Catalog = dict[str, list[dict[str, Any]]]
"""Each kind's items as MCP wire-named JSON."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for name in ("target_a", "target_b"):
        parser.add_argument(
            name,
            metavar=name.upper(),
            help="an MCP URL, or target options in one quoted word ('--stdio \"CMD\"')",
        )
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.target_options import target_from_words

    targets = [target_from_words(_words(text)) for text in (args.target_a, args.target_b)]
    a, b = asyncio.run(_both(targets))
    diffs = {kind: diff_kind(kind, a[kind], b[kind]) for kind in KINDS}
    same = all(d.same for d in diffs.values())
    if args.json:
        print_json({"same": same, **{kind: d.as_json() for kind, d in diffs.items()}})
    else:
        print_diffs(diffs)
    return 0 if same else 1


def _words(text: str) -> list[str]:
    """A target given as one word: a URL is an MCP endpoint, anything else target options."""
    if text.startswith("-"):
        try:
            return shlex.split(text)
        except ValueError as error:
            raise EnvError(f"cannot read the target {text!r}: {error}") from None
    return ["--mcp", text]


async def _both(targets: list[Any]) -> tuple[Catalog, Catalog]:
    a, b = await asyncio.gather(*(catalog_json(t) for t in targets))
    return a, b


async def catalog_json(target: Any) -> Catalog:
    """Connect to `target`, list what it serves, close."""
    from fleet_tui.envs.capabilities import ServesCatalog
    from fleet_tui.envs.factory import make_env

    env = make_env(target)
    try:
        await env.connect()
        for warning in env.warnings():
            warn(warning)
        tools = await env.list_tools()
        found: Catalog = {kind: [] for kind in KINDS}
        found["tools"] = [wire(tool.model_dump(mode="json")) for tool in tools]
        if isinstance(env, ServesCatalog):
            catalog = env.catalog()
            resources, templates = await catalog.resources(), await catalog.templates()
            found["resources"] = [wire(item.model_dump(mode="json")) for item in resources.items]
            found["templates"] = [wire(item.model_dump(mode="json")) for item in templates.items]
            prompts = await catalog.prompts()
            found["prompts"] = [wire(item.model_dump(mode="json")) for item in prompts.items]
        return found
    finally:
        await env.close()


def print_diffs(diffs: dict[str, KindDiff]) -> None:
    """Each kind's differences: `+ added`, `- removed`, `~ changed: fields`, each changed
    field's JSON diff indented under it."""
    if all(d.same for d in diffs.values()):
        out("the same tools, resources, templates and prompts")
        return
    for kind, found in diffs.items():
        if found.same:
            continue
        counts = f"{len(found.added)} added, {len(found.removed)} removed, "
        out(f"{kind}: {counts}{len(found.changed)} changed")
        for name in found.added:
            out(f"  + {visible(name)}")
        for name in found.removed:
            out(f"  - {visible(name)}")
        for name, fields in found.changed.items():
            out(f"  ~ {visible(name)}: {', '.join(fields)}")
            for key, (a, b) in fields.items():
                out(f"      {key}:")
                for line in value_diff(a, b):
                    out(f"        {visible(line)}")
