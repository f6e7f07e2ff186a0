"""Holding an agent's calls: pause, step, resume, take over, breakpoints.

A call the gate holds waits (the agent just sees a slow call) until the person releases it, as
asked or with edited arguments, or answers it with an error. The gate knows nothing of MCP or
the UI: `on_change` tells whoever shows it that something changed.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fleet_tui.controller import CallRecord


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


@dataclass(frozen=True)
class Release:
    """Make the call, with `arguments` when the person edited them (None: as asked)."""

    arguments: dict[str, Any] | None = None


@dataclass(frozen=True)
class Refusal:
    """Do not make the call; answer the agent with this error."""

    message: str
    abandoned: bool = False
    """Refused because fleet-tui is closing, not by the person."""


Answer = Release | Refusal


@dataclass(eq=False)
class HeldCall:
    record: CallRecord
    reason: str
    answer: asyncio.Future[Answer] = field(repr=False)


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

    def hold_reason(self, tool: str, arguments: dict[str, Any]) -> str | None:
        """Why a call to `tool` with `arguments` would wait now, or None."""
        hit = next((b for b in self.breakpoints if b.matches(tool, arguments)), None)
        if hit is not None:
            return f"breakpoint {hit}"
        if self.taken_over:
            return "you have taken over"
        return "paused" if self.paused else None

    async def hold(self, record: CallRecord, reason: str) -> Answer:
        """Wait until the person answers the held call (a breakpoint also pauses the rest)."""
        if self.closed is not None:
            return Refusal(self.closed, abandoned=True)
        if reason.startswith("breakpoint"):
            self.paused = True
        held = HeldCall(record, reason, asyncio.get_running_loop().create_future())
        self.held.append(held)
        self.on_change()
        try:
            return await held.answer
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

    def resume(self) -> None:
        """Let every call through (the held ones now, in order) unless taken over."""
        self.paused = False
        if not self.taken_over:
            for held in list(self.held):
                self.answer(held, Release())
        self.on_change()

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

    def answer(self, held: HeldCall, answer: Answer) -> None:
        if not held.answer.done():
            held.answer.set_result(answer)
        if held in self.held:
            self.held.remove(held)
        self.on_change()

    def close(self, message: str) -> None:
        """Refuse every held call and every later one with `message`."""
        self.closed = message
        for held in list(self.held):
            self.answer(held, Refusal(message, abandoned=True))
