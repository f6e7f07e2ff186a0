"""`fleet-tui proxy TARGET`: serve the target's tools to an agent as one MCP endpoint on
127.0.0.1, without the app. Prints the URL, the token and a client configuration (stderr, and
a first JSON line on stdout), then one JSON line per call an agent makes: which agent (its MCP
session and client), what it asked when the person edited it, how long it was held, and its
outcome: `completed` (it reached the env), `refused` or `abandoned` (held, it never did),
`unknown_tool` or `invalid_arguments` (refused before reaching the env). `--hold` and `--break`
hold the agent's calls; commands on stdin (`proxy_control.py`) release them."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fleet_tui.commands.app import add_expose_reset_argument, add_gate_arguments
from fleet_tui.commands.output import err, print_json_line
from fleet_tui.commands.proxy_control import COMMANDS_HELP, held_line
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.target_argv import add_target_arguments
from fleet_tui.text import one_line

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController
    from fleet_tui.proxy.gate import Gate
    from fleet_tui.session.recorder import SessionRecorder

TEXT_LIMIT = 2000
"""Characters of a result's text in its JSON line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument(
        "--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)"
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="record the session here (default: a new file in the state dir)",
    )
    parser.add_argument("--no-record", action="store_true", help="do not record the session")
    add_expose_reset_argument(parser)
    agent = parser.add_argument_group("holding the agent's calls")
    agent.add_argument(
        "--hold",
        action="store_true",
        help="start paused: the agent's calls wait until `resume`, `step` or `release N` on stdin",
    )
    add_gate_arguments(agent)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = COMMANDS_HELP


def run(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    return asyncio.run(_serve(target, args))


def call_line(record: Any) -> dict[str, Any]:
    """The JSON line for one finished call."""
    result = record.result
    line: dict[str, Any] = {
        "event": "call",
        "number": record.number,
        "caller": str(record.caller),
        "agent": record.agent.model_dump() if record.agent is not None else None,
        "tool": record.tool,
        "arguments": record.arguments,
        "asked_arguments": record.asked_arguments,
        "held_ms": round(record.held_s * 1000) if record.held_s is not None else None,
        "status": str(record.status),
        "outcome": record.outcome,
        "latency_ms": round(record.latency_s * 1000) if record.latency_s is not None else None,
    }
    if record.message:
        line["message"] = one_line(record.message, TEXT_LIMIT)
    if result is not None:
        line["text"] = result.text()[:TEXT_LIMIT]
        line["images"] = len(result.images())
    return line


def _gate(args: argparse.Namespace) -> Gate:
    """The gate `--hold`, `--break` and `--hold-limit` ask for; it prints a `held` line for
    each call it begins to hold."""
    from fleet_tui.proxy.gate import Gate, parse_breakpoints

    points = parse_breakpoints(args.breakpoints)
    announced: set[int] = set()

    def announce_held() -> None:
        for held in gate.held:
            if held.record.number not in announced:
                announced.add(held.record.number)
                print_json_line({"event": "held", **held_line(held)})

    gate = Gate(
        on_change=announce_held,
        paused=args.hold,
        breakpoints=points,
        hold_limit_s=args.hold_limit,
    )
    return gate


async def _serve(target: Any, args: argparse.Namespace) -> int:
    """Open the session the way every headless command does (`open_session`: its progress,
    warnings, close problems and the kept-instance note on stderr), serve it until a signal."""
    from fleet_tui.commands.output import Output
    from fleet_tui.commands.sign_in import PrintedSignIn
    from fleet_tui.session.recorder import recorder_for
    from fleet_tui.session_open import open_session
    from fleet_tui.session_records import CallFinished, SessionEvent
    from fleet_tui.stop_signals import stop_task_on_signals

    gate = _gate(args)  # a bad --break is refused before anything starts
    recorder = None if args.no_record else recorder_for(target, args.record)

    def show(event: SessionEvent) -> None:
        if isinstance(event, CallFinished):
            print_json_line(call_line(event.record))

    with stop_task_on_signals() as stop:
        try:
            async with open_session(
                target, PrintedSignIn(), notes=Output(), recorder=recorder, listeners=[show]
            ) as session:
                await _serve_session(session, gate, args, recorder)
        except asyncio.CancelledError:
            if stop.exit_code is None:
                raise
            err("fleet-tui: terminated")
            return stop.exit_code
        finally:
            if recorder is not None:
                recorder.close()
    return 0


async def _serve_session(
    session: SessionController,
    gate: Gate,
    args: argparse.Namespace,
    recorder: SessionRecorder | None,
) -> None:
    """Serve the connected session's tools to agents until cancelled; held calls are refused
    and the server stopped before the session closes."""
    from fleet_tui.commands.proxy_control import obey, read_commands
    from fleet_tui.proxy.agent_calls import AgentCalls
    from fleet_tui.proxy.server import ProxyServer

    calls = AgentCalls(session, gate)
    server: ProxyServer | None = None
    try:
        loop = asyncio.get_running_loop()
        server = ProxyServer(
            calls, loop, port=args.port, token=args.token, expose_reset=args.expose_reset
        )
        server.start()
        _announce(server, recorder.path if recorder else None, len(session.tools))
        read_commands(loop, lambda line: print_json_line(obey(calls.gate, line)))
        await asyncio.Event().wait()  # until Ctrl+C, SIGTERM or SIGHUP
    finally:
        calls.gate.close("fleet-tui is closing: the call was not made.")
        if server is not None:
            await asyncio.to_thread(server.stop)


def _announce(server: Any, recording: Path | None, tools: int) -> None:
    import json

    config = server.client_config()
    err(f"Serving {tools} tools as MCP at {server.url}")
    err(f"Token: {server.token}  (send it as `Authorization: Bearer <token>`)")
    err("MCP client config:")
    err(json.dumps(config, indent=2))
    if recording is not None:
        err(f"Recording to {recording}")
    err("Ctrl+C stops. On stdin: pause, resume, step, release N, release all, refuse N, list.")
    print_json_line(
        {"event": "serving", "url": server.url, "token": server.token, "config": config}
    )
