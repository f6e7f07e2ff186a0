"""`fleet-tui tools TARGET`: the union of MCP tools, grouped by the endpoint that owns each."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from fleet_tui.commands.client_options import HeadlessAnswers, add_root_argument
from fleet_tui.commands.output import out, print_json, table
from fleet_tui.commands.server_output import ServerOutput, add_server_arguments
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.commands.warm import add_keep_warm_argument
from fleet_tui.envs.base import EndpointStatus, Env, Tool
from fleet_tui.envs.tool_hints import hint_words, task_note
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import one_line, visible

if TYPE_CHECKING:
    from fleet_tui.commands.lifecycle import Work


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    add_root_argument(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    add_server_arguments(parser)
    add_keep_warm_argument(parser)


def run_answering_servers(
    args: argparse.Namespace, work: Work, keep_warm: float | None = None
) -> int:
    """Run `work` on the target, answering what its servers ask (`--root`) and showing what
    they send (`--log-level`, `--trace`); shared with `info`. `keep_warm`: see `run_on_env`."""
    from fleet_tui.commands.lifecycle import run_on_env

    answers = HeadlessAnswers.from_args(args)
    target = target_from_args(args)
    with ServerOutput(args.log_level, trace=args.trace) as server:
        return run_on_env(target, work, server.handlers, answers, keep_warm=keep_warm)


def run(args: argparse.Namespace) -> int:
    async def work(env: Env) -> int:
        tools = await env.list_tools()
        if args.json:
            print_json(
                {
                    "tools": [tool.model_dump(mode="json") for tool in tools],
                    "endpoints": [status.model_dump(mode="json") for status in env.endpoints()],
                    "warnings": env.warnings(),
                }
            )
            return 0
        statuses = {status.url: status for status in env.endpoints()}
        groups: dict[str, list[Tool]] = {url: [] for url in statuses}
        for tool in tools:
            groups.setdefault(tool.endpoint, []).append(tool)
        for url, owned in groups.items():
            out(f"{url or 'tools'}{endpoint_state(statuses.get(url), len(owned))}")
            if owned:
                rows = [[visible(tool.name), tool_line(tool)] for tool in owned]
                for line in table(rows, ["TOOL", "DESCRIPTION"]).split("\n"):
                    out(f"  {line}")
            out()
        out(f"{len(tools)} tools")
        return 0

    return run_answering_servers(args, work, keep_warm=args.keep_warm)


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
    if (note := task_note(tool)) is not None:
        return one_line(f"TASK ONLY: {note}", 200)
    hints = hint_words(tool)
    return one_line((f"[{', '.join(hints)}] " if hints else "") + tool.description, 80)
