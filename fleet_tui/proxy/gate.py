"""Holding an agent's calls: pause, step, resume, take over, breakpoints, a hold limit.

A call the gate holds waits (the agent just sees a slow call) until the person releases it, as
asked or with edited arguments, or answers it with an error, or until the hold limit answers
it with an error for them. Resuming releases the held calls in the order they came, each made
once the one before it has finished, unless the person releases them all at once on purpose.
The gate knows nothing of MCP or the UI: `on_change` tells whoever shows it that something
changed.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fleet_tui.controller import CallRecord
from fleet_tui.envs.errors import EnvError


@dataclass(frozen=True)
class Breakpoint:
    """Stop before a call whose tool matches `tool` (a name or a glob such as `todo_*`) and,
    when `key` is set, whose argument `key` equals `value`."""

    tool: str = "*"
    key: str | None = None
    value: str | None = None

    @classmethod
    def parse(cls, text: str) -> Breakpoint:
        """`TOOL`, `TOOL KEY=VALUE` or `KEY=VALUE`; ValueError in plain words otherwise."""
        words = text.split(maxsplit=1)
        if not words:
            raise ValueError("a breakpoint needs a tool name, KEY=VALUE, or both")
        if len(words) == 1 and "=" not in words[0]:
            return cls(tool=words[0])
        tool, match = ("*", words[0]) if len(words) == 1 else (words[0], words[1])
        key, _, value = match.partition("=")
        if not key.strip() or "=" not in match:
            raise ValueError(f"expected TOOL KEY=VALUE, got {text!r}")
        return cls(tool=tool, key=key.strip(), value=value.strip())

    def matches(self, tool: str, arguments: dict[str, Any]) -> bool:
        if not fnmatch.fnmatchcase(tool, self.tool):
            return False
        if self.key is None:
            return True
        if self.key not in arguments:
            return False
        given = arguments[self.key]
        as_text = given if isinstance(given, str) else json.dumps(given, ensure_ascii=False)
        return as_text == self.value

    def __str__(self) -> str:
        match = f" {self.key}={self.value}" if self.key is not None else ""
        return f"{self.tool}{match}"


def parse_breakpoints(texts: list[str]) -> list[Breakpoint]:
    """The `--break` options' breakpoints; EnvError (exit 2) naming the option for a bad one."""
    try:
        return [Breakpoint.parse(text) for text in texts]
    except ValueError as error:
        raise EnvError(f"--break: {error}") from None


@dataclass(frozen=True)
class Release:
    """Make the call, with `arguments` when the person edited them (None: as asked)."""

    arguments: dict[str, Any] | None = None
    turn: Turn | None = None
    """In an ordered release: when the call may go to the env, and how it says it is done."""


@dataclass(frozen=True, eq=False)
class Turn:
    """A place in an ordered release: the call waits for `after` (the call released before it
    has finished), and sets `done` when it has finished itself (made, failed or abandoned)."""

    after: asyncio.Future[None] | None
    done: asyncio.Future[None]

    async def wait(self) -> None:
        if self.after is not None:
            await asyncio.shield(self.after)

    def finish(self) -> None:
        """This call is done (made, or never to be): the next goes once the ones before have."""
        if self.after is not None and not self.after.done():
            self.after.add_done_callback(lambda _: self.finish())
        elif not self.done.done():
            self.done.set_result(None)


@dataclass(frozen=True)
class Refusal:
    """Do not make the call; answer the agent with this error."""

    message: str
    abandoned: bool = False
    """Refused because fleet-tui is closing, not by the person."""


Answer = Release | Refusal


def over_limit(limit_s: float) -> str:
    """The error an agent reads when its call was held past the hold limit."""
    return f"The call was held by a person for more than {limit_s:g} s and was not made."


@dataclass(eq=False)
class HeldCall:
    record: CallRecord
    reason: str
    answer: asyncio.Future[Answer] = field(repr=False)
    client: str | None = None
    """The name the agent's MCP client gave in `initialize` (its `clientInfo`), if known."""
    since: float = field(default_factory=time.monotonic)

    @property
    def age_s(self) -> float:
        return time.monotonic() - self.since


@dataclass
class Gate:
    """Which agent calls wait, and the calls waiting (in the order they came)."""

    on_change: Callable[[], None] = lambda: None
    paused: bool = False
    taken_over: bool = False
    breakpoints: list[Breakpoint] = field(default_factory=list)
    held: list[HeldCall] = field(default_factory=list)
    closed: str | None = None
    """Why no call is made any more (fleet-tui is closing), or None."""
    hold_limit_s: float | None = None
    """A call held longer than this is answered with an error (`over_limit`); None: no limit."""

    def hold_reason(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """Why a call to `tool` with `arguments` would wait now, or None."""
        hit = next((b for b in self.breakpoints if b.matches(tool, arguments)), None)
        if hit is not None:
            return f"breakpoint {hit}"
        if self.taken_over:
            return "you have taken over"
        return "paused" if self.paused else None

    async def hold(self, record: CallRecord, reason: str, client: str | None = None) -> Answer:
        """Wait until the person answers the held call (a breakpoint also pauses the rest), or
        the hold limit passes."""
        if self.closed is not None:
            return Refusal(self.closed, abandoned=True)
        if reason.startswith("breakpoint"):
            self.paused = True
        answer = asyncio.get_running_loop().create_future()
        held = HeldCall(record, reason, answer, client)
        self.held.append(held)
        self.on_change()
        try:
            if self.hold_limit_s is None:
                return await answer
            try:
                return await asyncio.wait_for(asyncio.shield(answer), self.hold_limit_s)
            except TimeoutError:
                _give_up_turn(answer)
                return Refusal(over_limit(self.hold_limit_s))
        except asyncio.CancelledError:
            _give_up_turn(answer)  # the agent went away as it was released
            raise
        finally:
            if held in self.held:
                self.held.remove(held)
            self.on_change()

    def held_call(self, number: int) -> HeldCall | None:
        return next((h for h in self.held if h.record.number == number), None)

    # -- what the person does ----------------------------------------------------------------

    def pause(self) -> None:
        self.paused = True
        self.on_change()

    def resume(self, *, in_parallel: bool = False) -> None:
        """Let every call through unless taken over: the held ones in the order they came, each
        made once the one before it has finished (all at once if `in_parallel`)."""
        self.paused = False
        if not self.taken_over:
            self.release_held(in_parallel=in_parallel)
        self.on_change()

    def release_held(self, *, in_parallel: bool = False) -> None:
        """Release the calls held now (staying paused or taken over): in the order they came,
        one after another, or all at once if `in_parallel`."""
        loop = asyncio.get_running_loop() if self.held else None
        after: asyncio.Future[None] | None = None
        for held in list(self.held):
            if in_parallel or loop is None:
                self.answer(held, Release())
                continue
            turn = Turn(after, loop.create_future())
            if not self.answer(held, Release(turn=turn)):
                turn.finish()
            after = turn.done

    def step(self) -> HeldCall | None:
        """Release the first held call (and stay paused); None when none waits."""
        if not self.held:
            return None
        first = self.held[0]
        self.answer(first, Release())
        return first

    def take_over(self) -> None:
        """The person's calls go first: agent calls wait until `give_back`."""
        self.taken_over = True
        self.on_change()

    def give_back(self) -> None:
        self.taken_over = False
        if self.paused:
            self.on_change()
        else:
            self.resume()

    def answer(self, held: HeldCall, answer: Answer) -> bool:
        """Give `held` its answer; False when it already had one."""
        delivered = not held.answer.done()
        if delivered:
            held.answer.set_result(answer)
        if held in self.held:
            self.held.remove(held)
        self.on_change()
        return delivered

    def close(self, message: str) -> None:
        """Refuse every held call and every later one with `message`."""
        self.closed = message
        for held in list(self.held):
            self.answer(held, Refusal(message, abandoned=True))


def _give_up_turn(answer: asyncio.Future[Answer]) -> None:
    """A release that will not be made: the calls after it in an ordered release go on."""
    if answer.done() and not answer.cancelled():
        released = answer.result()
        if isinstance(released, Release) and released.turn is not None:
            released.turn.finish()
