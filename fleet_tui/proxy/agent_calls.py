"""An agent's call, made through the session controller like the person's own.

Each call gets a numbered record marked as the agent's, with which agent it is (so it shows in
the history as it starts and ends, and the session's recorder writes it), waits at the gate
when the person holds agent calls, then goes to the env. A call to a tool the env does not have,
or whose arguments break the tool's input schema, is refused before it reaches the env, and
recorded as such. An agent that goes away while its call is at the env does not cut
the call short: the call finishes and is recorded. A held call that is never made (refused by
the person or by the hold limit, or abandoned: the agent cancelled it or went away, or
fleet-tui closed) is finished as such, and recorded with that outcome: it never runs later. A
call released in an ordered release waits for the one released before it to finish.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fleet_tui.controller import Caller, CallRecord, CallStatus, SessionController
from fleet_tui.envs.base import ResetResult, ToolResult
from fleet_tui.forms.validation import input_problems
from fleet_tui.proxy.gate import Gate, Refusal, Turn
from fleet_tui.session_records import Agent, Unmade
from fleet_tui.text import name_line

Runner = Callable[[CallRecord], Awaitable[ToolResult | None]]
"""Makes a record's call (the controller's `call`, or the app's, which also shows it)."""
Resetter = Callable[[int | None, dict[str, Any]], Awaitable[tuple[CallRecord, ResetResult | None]]]
"""Resets the env for the agent (the controller's `reset`, or the app's, which also shows it)."""

REFUSED_BY_PERSON = "The person watching this env refused the call."
ABANDONED = "The agent cancelled the call or went away before it was released."
RESET = "<reset>"


@dataclass
class AgentRequest:
    """What the proxy's server knows of one request of the agent, and tells it back."""

    client: str | None = None
    """The name the agent's MCP client gave in `initialize` (its `clientInfo`)."""
    agent: Agent | None = None
    """Which agent: its MCP session and client (see `callers.py`), recorded with its call."""
    held_since: float | None = None
    """When (monotonic) the call began waiting at the gate; None while it does not wait."""
    record: CallRecord | None = None
    """The call's record, once it has one (what the env says of it is told to the agent)."""


@dataclass(frozen=True)
class AgentAnswer:
    """What the agent gets: the env's result, or why there is none."""

    record: CallRecord
    result: ToolResult | None
    error: str | None = None
    reset: ResetResult | None = None
    """For a reset the agent asked: what the env said."""


@dataclass
class AgentCalls:
    """Runs the agent's calls on `session`'s env, past `gate`."""

    session: SessionController
    gate: Gate = field(default_factory=Gate)
    runner: Runner | None = None
    """How a released call is made (default: `session.call`)."""
    resetter: Resetter | None = None
    """How the agent's reset is made (default: `session.reset`, as the agent's)."""

    async def call(
        self, name: str, arguments: dict[str, Any], request: AgentRequest | None = None
    ) -> AgentAnswer:
        """Make the call `request` asks, past the gate; refused (and recorded) before it
        reaches the env when the env has no such tool or the arguments break its schema."""
        request = request or AgentRequest()
        agent = request.agent
        session = self.session
        if not session.connected:
            return AgentAnswer(_unrecorded(name, arguments), None, "The env is not connected.")
        if (refused := self._refusal(name, arguments)) is not None:
            unmade, message = refused
            return AgentAnswer(
                session.refuse(name, arguments, unmade, message, agent), None, message
            )
        reason = self.gate.hold_reason(name, arguments)
        status = CallStatus.HELD if reason else CallStatus.RUNNING
        record = session.add_record(
            name, arguments, caller=Caller.AGENT, agent=agent, status=status
        )
        request.record = record
        turn: Turn | None = None
        if reason is not None:
            request.held_since = time.monotonic()
            try:
                answer = await self.gate.hold(record, reason, request.client)
                if isinstance(answer, Refusal):
                    unmade = Unmade.ABANDONED if answer.abandoned else Unmade.REFUSED
                    session.answer_unmade(record, CallStatus.ERROR, answer.message, unmade)
                    return AgentAnswer(record, None, answer.message)
                turn = answer.turn
                if turn is not None:
                    await turn.wait()
            except asyncio.CancelledError:
                if turn is not None:
                    turn.finish()
                session.answer_unmade(record, CallStatus.CANCELLED, ABANDONED, Unmade.ABANDONED)
                raise
            finally:
                request.held_since = None
            session.update(record, CallStatus.RUNNING, answer.arguments)
        run = self.runner or session.call
        made = asyncio.ensure_future(run(record))
        if turn is not None:
            made.add_done_callback(lambda _: turn.finish())
        # shielded: an agent that leaves mid-call leaves a call that finishes and is recorded
        result = await asyncio.shield(made)
        return AgentAnswer(record, result, None if result is not None else record.message)

    def _refusal(self, name: str, arguments: dict[str, Any]) -> tuple[Unmade, str] | None:
        """Why a call cannot reach the env (and what the agent is told), or None."""
        tool = self.session.tool_named(name)
        if tool is None:
            return Unmade.UNKNOWN_TOOL, f"No tool named {name_line(name, 80)}."
        problems = input_problems(arguments, tool.input_schema)
        if problems:
            listed = "; ".join(problems)
            return Unmade.INVALID_ARGUMENTS, f"The arguments break the tool's schema: {listed}"
        return None

    async def reset(self, seed: int | None, options: dict[str, Any]) -> AgentAnswer:
        """A new episode asked by the agent: the controller's reset, recorded as the agent's.
        Not held at the gate: a reset takes no step in the env's episode."""
        session = self.session
        if not session.connected:
            return AgentAnswer(_unrecorded(RESET, options), None, "The env is not connected.")
        make_reset = self.resetter or self._reset_as_agent
        record, outcome = await asyncio.shield(make_reset(seed, options))
        return AgentAnswer(record, outcome.result if outcome else None, record.message, outcome)

    async def _reset_as_agent(
        self, seed: int | None, options: dict[str, Any]
    ) -> tuple[CallRecord, ResetResult | None]:
        return await self.session.reset(seed, options, caller=Caller.AGENT)


def _unrecorded(name: str, arguments: dict[str, Any]) -> CallRecord:
    return CallRecord(number=0, tool=name, arguments=arguments, caller=Caller.AGENT)
