"""Steering `fleet-tui proxy`'s gate from its standard input, one command a line, each
answered with a JSON line on stdout (`{"event": "control", ...}`): what a person does in the
app's Agent pane, for a script or a terminal. A call the gate holds is announced with a
`{"event": "held", ...}` line."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from fleet_tui.proxy.agent_calls import REFUSED_BY_PERSON
from fleet_tui.proxy.gate import Gate, HeldCall, Refusal, Release

COMMANDS_HELP = """\
control (one command a line on stdin, each answered by a JSON line on stdout):
  pause          hold the agent's calls from now on
  resume         let calls flow; the held ones are made in the order they came, one after
                 another
  step           make the first held call, stay paused
  release N      make held call #N (as asked)
  release all    make every held call now, at once (in parallel), stay paused
  refuse N       answer held call #N with an error, never making it
  list           the held calls
A held call is announced by a JSON line {"event": "held", "number": N, ...}."""


def held_line(held: HeldCall) -> dict[str, Any]:
    """One held call as a JSON line's fields."""
    record = held.record
    return {
        "number": record.number,
        "tool": record.tool,
        "arguments": record.arguments,
        "reason": held.reason,
        "held_s": round(held.age_s, 1),
        "client": held.client,
    }


def _held_numbered(gate: Gate, word: str) -> HeldCall:
    try:
        number = int(word.removeprefix("#"))
    except ValueError:
        raise ValueError(f"{word!r} is not a held call's number") from None
    held = gate.held_call(number)
    if held is None:
        raise ValueError(f"no held call #{number}")
    return held


def obey(gate: Gate, line: str) -> dict[str, Any]:
    """Do what one command line asks of `gate`; the JSON line that answers it."""
    words = line.split()
    reply: dict[str, Any] = {"event": "control", "command": line.strip()}
    try:
        reply.update(_obey(gate, words))
    except ValueError as error:
        reply.update(ok=False, error=str(error))
        return reply
    reply["ok"] = True
    return reply


def _obey(gate: Gate, words: list[str]) -> dict[str, Any]:
    match words:
        case ["pause"]:
            gate.pause()
        case ["resume"]:
            gate.resume()
        case ["step"]:
            released = gate.step()
            if released is None:
                raise ValueError("no call is held")
            return {"number": released.record.number}
        case ["release", "all"]:
            gate.release_held(in_parallel=True)
        case ["release", number]:
            gate.answer(_held_numbered(gate, number), Release())
        case ["refuse", number]:
            gate.answer(_held_numbered(gate, number), Refusal(REFUSED_BY_PERSON))
        case ["list"]:
            return {"paused": gate.paused, "held": [held_line(h) for h in gate.held]}
        case _:
            raise ValueError(
                "unknown command (pause, resume, step, release N, release all, refuse N, list)"
            )
    return {}


def read_commands(
    loop: asyncio.AbstractEventLoop, handle: Callable[[str], None], stream: TextIO | None = None
) -> None:
    """Hand each line of `stream` (stdin) to `handle` on `loop`, from a thread of its own that
    ends with the stream (a daemon: a read that never ends does not keep the process alive)."""
    source = stream or sys.stdin

    def read() -> None:
        for line in source:
            if line.strip():
                try:
                    loop.call_soon_threadsafe(handle, line)
                except RuntimeError:  # the loop has ended
                    return

    threading.Thread(target=read, name="fleet-tui-proxy-control", daemon=True).start()
