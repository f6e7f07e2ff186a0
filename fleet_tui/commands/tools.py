"""`fleet-tui tools TARGET`: the union of MCP tools, grouped by the endpoint that owns each."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.client_options import (
    HeadlessAnswers,
    add_protocol_argument,
    add_root_argument,
)
from fleet_tui.commands.output import Output, table
from fleet_tui.commands.server_output import add_server_arguments
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.commands.warm import add_keep_warm_argument
from fleet_tui.commands.wire_names import wire
from fleet_tui.envs.base import EndpointStatus, Tool
from fleet_tui.envs.tool_hints import hint_words
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import one_line, visible

if TYPE_CHECKING:
    from fleet_tui.commands.lifecycle import SessionCommand, Work
    from fleet_tui.controller import SessionController


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    add_root_argument(parser)
    add_protocol_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    add_server_arguments(parser)
    add_keep_warm_argument(parser)


def answering_servers(
    args: argparse.Namespace,
    out: Output,
    work: Work,
    *,
    keep_warm: float | None = None,
    answers: HeadlessAnswers | None = None,
) -> SessionCommand:
    """`work` on the target, answering what its servers ask (`--root`, or `answers`) and
    showing what they send (`--log-level`, `--trace`); shared with `info` and `call`."""
    from fleet_tui.commands.lifecycle import SessionCommand
    from fleet_tui.commands.server_output import ServerOutput

    answers = answers or HeadlessAnswers.from_args(args, out)
    target = target_from_args(args)
    server = ServerOutput(args.log_level, out.stderr, trace=args.trace)
    return SessionCommand(target, work, answers, server, keep_warm=keep_warm)


def session_command(args: argparse.Namespace, out: Output) -> SessionCommand:
    return answering_servers(args, out, show_tools, keep_warm=args.keep_warm)


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_session

    out = Output(json=args.json)
    return run_on_session(session_command(args, out), out)


async def show_tools(session: SessionController, out: Output) -> int:
    tools = session.tools
    if out.json:
        out.print_json(
            {
                "tools": [wire(tool.model_dump(mode="json")) for tool in tools],
                "endpoints": [status.model_dump(mode="json") for status in session.endpoints()],
                "warnings": session.warnings(),
            }
        )
        return 0
    statuses = {status.url: status for status in session.endpoints()}
    groups: dict[str, list[Tool]] = {url: [] for url in statuses}
    for tool in tools:
        groups.setdefault(tool.endpoint, []).append(tool)
    for url, owned in groups.items():
        out.out(f"{url or 'tools'}{endpoint_state(statuses.get(url), len(owned))}")
        if owned:
            rows = [[visible(tool.name), tool_line(tool)] for tool in owned]
            for line in table(rows, ["TOOL", "DESCRIPTION"]).split("\n"):
                out.out(f"  {line}")
        out.out()
    out.out(f"{len(tools)} tools")
    return 0


def endpoint_state(status: EndpointStatus | None, owned: int) -> str:
    """`  (up, over SSE, owns 3 of its 4 tools)`; nothing for tools of no known endpoint."""
    if status is None:
        return ""
    over = ", over SSE" if status.transport == "sse" else ""
    return f"  ({status.state.value}{over}, owns {owned} of its {status.tool_count} tools)"


def tool_line(tool: Tool) -> str:
    """The description column: the first line of the description after the server's hints
    (read-only, destructive, ...), or why the tool is broken or will likely fail."""
    if tool.broken is not None:
        return one_line(f"BROKEN: {tool.broken}", 80)
    hints = hint_words(tool)
    return one_line((f"[{', '.join(hints)}] " if hints else "") + tool.description, 80)
