"""The session's call records and the events its listeners hear of them: a call added,
updated while an agent's call is held (how long it was held, what the agent asked before the
person edited it), finished, or refused before it reached the env; a verifier's verdict; the
person's note and score on a step.

`SessionController` inherits `SessionHistory`: its listeners (`subscribe`) hear these events
and the rest of the controller's, in the order they happen.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fleet_tui.envs.base import TextBlock, ToolResult, Verdict
from fleet_tui.session_records import (
    Agent,
    CallAdded,
    Caller,
    CallFinished,
    CallNoted,
    CallRecord,
    CallStatus,
    CallUpdated,
    SessionEvent,
    Unmade,
    Verified,
)

SCORES = (1, 0, -1)
"""The scores a person gives a step: good, neutral, bad."""


class SessionHistory:
    """The call records (`records`, numbered from 1) and the listeners of the session."""

    def __init__(self) -> None:
        self.records: list[CallRecord] = []
        self._listeners: list[Callable[[SessionEvent], None]] = []
        self._held_since: dict[int, float] = {}
        """When each held record was held, by number (its hold time is kept on release)."""

    def subscribe(self, listener: Callable[[SessionEvent], None]) -> None:
        """Call `listener` with every event, after the listeners subscribed before it."""
        self._listeners.append(listener)

    def _emit(self, event: SessionEvent) -> None:
        for listener in self._listeners:
            listener(event)

    def last_call(self) -> CallRecord | None:
        """The latest call that finished (what a verdict follows)."""
        calls = [r for r in self.records if r.is_call and r.status != CallStatus.RUNNING]
        return calls[-1] if calls else None

    def add_record(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        caller: Caller = Caller.YOU,
        agent: Agent | None = None,
        status: CallStatus = CallStatus.RUNNING,
    ) -> CallRecord:
        """A new record (running, or held for an agent's call), numbered after the others."""
        record = CallRecord(
            number=len(self.records) + 1,
            tool=tool,
            arguments=arguments,
            caller=caller,
            agent=agent,
            status=status,
        )
        if status == CallStatus.HELD:
            self._held_since[record.number] = time.monotonic()
        self.records.append(record)
        self._emit(CallAdded(record))
        return record

    def update(
        self, record: CallRecord, status: CallStatus, arguments: dict[str, Any] | None = None
    ) -> None:
        """A record not yet finished changes status (held, running) or arguments (edited:
        what was asked is kept in `asked_arguments`)."""
        if status == CallStatus.HELD:
            self._held_since.setdefault(record.number, time.monotonic())
        else:
            self._end_hold(record)
        record.status = status
        if arguments is not None and arguments != record.arguments:
            if record.asked_arguments is None:
                record.asked_arguments = record.arguments
            record.arguments = arguments
        self._emit(CallUpdated(record))

    def annotate(
        self, record: CallRecord, *, note: str | None = None, score: int | None = None
    ) -> None:
        """The person's note on a step, or its score (+1, 0 or -1); what is not given is kept.
        Raises ValueError for another score."""
        if score is not None:
            if score not in SCORES:
                raise ValueError(f"a score is one of {', '.join(map(str, SCORES))}, not {score}")
            record.score = score
        if note is not None:
            record.note = note.strip()
        self._emit(CallNoted(record))

    def _end_hold(self, record: CallRecord) -> None:
        """Add the time `record` was held, if it was, to its `held_s`."""
        since = self._held_since.pop(record.number, None)
        if since is not None:
            record.held_s = (record.held_s or 0.0) + time.monotonic() - since

    def refuse(
        self,
        tool: str,
        arguments: dict[str, Any],
        unmade: Unmade,
        message: str,
        agent: Agent | None,
    ) -> CallRecord:
        """Keep an agent's call refused before it reached the env (`unmade` says why: an
        unknown tool, arguments that break its schema), answered with `message`."""
        record = self.add_record(tool, arguments, caller=Caller.AGENT, agent=agent)
        self.answer_unmade(record, CallStatus.ERROR, message, unmade)
        return record

    def answer_unmade(
        self, record: CallRecord, status: CallStatus, message: str, unmade: Unmade
    ) -> None:
        """Finish a call that was never made (an agent's call: refused, held then refused or
        abandoned)."""
        self._end_hold(record)
        record.unmade = unmade
        record.result = ToolResult(blocks=[TextBlock(text=message)], is_error=True)
        self._finish(record, status, time.monotonic(), message=message)

    def _finish(
        self, record: CallRecord, status: CallStatus, started: float, message: str = ""
    ) -> None:
        record.status = status
        record.message = message
        record.latency_s = record.result.latency_s if record.result else time.monotonic() - started
        self._emit(CallFinished(record))

    def record_verdict(
        self,
        verdict: Verdict,
        *,
        after: str | None,
        headline: str,
        text: str,
        elapsed_s: float,
        final_answer: str | None = None,
    ) -> CallRecord:
        """Keep a verifier's verdict (given `final_answer`) among the records, after the step
        it followed."""
        self._emit(Verified(verdict, final_answer))
        if not verdict.success:
            status = CallStatus.ERROR
        else:
            status = CallStatus.PASS if verdict.passed else CallStatus.FAIL
        record = CallRecord(
            number=len(self.records) + 1,
            tool="<verify>",
            arguments={"task": verdict.task_key, "after": after or "start"},
            status=status,
            message=headline,
            result=ToolResult(blocks=[TextBlock(text=text)], is_error=not verdict.passed),
            latency_s=elapsed_s,
        )
        self.records.append(record)
        self._emit(CallAdded(record))
        return record
