"""`fleet-tui info TARGET`: each MCP endpoint as its server described itself when the session
opened (name, version, protocol, capabilities, instructions for the agent), and the roots
offered. An OpenEnv server: its WebSocket session with its tools, and its `/metadata` and
`/schema` where it serves them."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.client_options import roots_from_args
from fleet_tui.commands.output import Output
from fleet_tui.commands.tools import add_arguments as add_arguments
from fleet_tui.commands.tools import answering_servers
from fleet_tui.commands.wire_names import wire
from fleet_tui.envs.base import EndpointStatus
from fleet_tui.text import visible

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController

LABEL_WIDTH = 14


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_session

    out = Output(json=args.json)
    roots = roots_from_args(args)

    async def work(session: SessionController, out: Output) -> int:
        return await show_info(session, out, roots)

    return run_on_session(answering_servers(args, out, work), out)


async def show_info(session: SessionController, out: Output, offered: list[str]) -> int:
    from fleet_tui.commands.state import description_lines
    from fleet_tui.envs.server_requests import root_uris

    openenv = session.info.kind == "openenv"
    described = await session.description() if openenv else {}
    endpoints = session.endpoints()
    roots = root_uris(offered)
    if out.json:
        out.print_json(
            {
                "endpoints": [endpoint_json(status) for status in endpoints],
                "roots": roots,
                "warnings": session.warnings(),
                **described,
            }
        )
        return 0
    for endpoint in endpoints:
        for line in endpoint_lines(endpoint):
            out.out(line)
        out.out()
    if described:
        out.out("Environment" + ("" if any(described.values()) else "  (no /metadata, /schema)"))
        for line in description_lines(described):
            out.out(f"  {line}")
        out.out()
    out.out("Roots offered")
    for root in roots or ["(none: --root PATH offers one)"]:
        out.out(f"  {visible(root)}")
    return 0


def endpoint_lines(endpoint: EndpointStatus) -> list[str]:
    """The endpoint's rows, its instructions and (stdio) its stderr, each line made visible."""
    from fleet_tui.envs.endpoint_info import endpoint_rows
    from fleet_tui.envs.server_info import cut_note

    lines = [visible(endpoint.url)]
    lines += [
        f"  {label:<{LABEL_WIDTH}}{visible(value)}" for label, value in endpoint_rows(endpoint)
    ]
    info = endpoint.server
    if info is not None:
        lines.append("  Instructions" + ("" if info.instructions else "  (none)"))
        instructions = (info.instructions or "").splitlines()
        lines += [f"    {visible(line)}".rstrip() for line in instructions]
        if (note := cut_note(info)) is not None:
            lines.append(f"    {note}")
    if endpoint.transport == "stdio":
        lines.append("  stderr" + ("" if endpoint.output else "  (nothing yet)"))
        lines += [f"    {visible(line)}" for line in endpoint.output]
    return lines


def endpoint_json(status: EndpointStatus) -> dict[str, object]:
    """An endpoint for `--json`: what its server said in `initialize` under MCP's names."""
    data = status.model_dump(mode="json")
    if data.get("server") is not None:
        data["server"] = wire(data["server"])
    return data
