"""`fleet-tui info TARGET`: each MCP endpoint as its server described itself when the session
opened (name, version, protocol, capabilities, instructions for the agent), and the roots
offered. An OpenEnv server: its WebSocket session with its tools, and its `/metadata` and
`/schema` where it serves them."""

from __future__ import annotations

import argparse

from fleet_tui.commands.client_options import roots_from_args
from fleet_tui.commands.output import out, print_json
from fleet_tui.commands.tools import add_arguments as add_arguments
from fleet_tui.commands.tools import run_answering_servers
from fleet_tui.envs.base import EndpointStatus, Env
from fleet_tui.text import visible

LABEL_WIDTH = 14


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.state import description, description_lines
    from fleet_tui.envs.server_requests import root_uris

    async def work(env: Env) -> int:
        openenv = env.info.kind == "openenv"
        if openenv:
            await env.list_tools()  # an OpenEnv session lists its tools only when asked
        described = await description(env) if openenv else {}
        endpoints = env.endpoints()
        roots = root_uris(roots_from_args(args))
        if args.json:
            print_json(
                {
                    "endpoints": [status.model_dump(mode="json") for status in endpoints],
                    "roots": roots,
                    "warnings": env.warnings(),
                    **described,
                }
            )
            return 0
        for endpoint in endpoints:
            for line in endpoint_lines(endpoint):
                out(line)
            out()
        if described:
            out("Environment" + ("" if any(described.values()) else "  (no /metadata, /schema)"))
            for line in description_lines(described):
                out(f"  {line}")
            out()
        out("Roots offered")
        for root in roots or ["(none: --root PATH offers one)"]:
            out(f"  {visible(root)}")
        return 0

    return run_answering_servers(args, work)


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
