"""Old calls' results are released from memory: a session that makes many calls (a hundred
screenshots of a megabyte each) would otherwise keep every result, bytes and all, for as long
as it runs. The newest results are kept up to KEPT_RESULT_BYTES together; an older call keeps
its reward, done flag and status, and its content is read back from the session file when the
person opens it again (an unrecorded session's is gone, and `read_back` says so).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from fleet_tui.envs.base import (
    AudioBlock,
    EnvError,
    ImageBlock,
    ResourceBlock,
    TextBlock,
    ToolResult,
)
from fleet_tui.session_records import CallFinished, CallRecord, SessionEvent

if TYPE_CHECKING:
    from fleet_tui.session.recorder import SessionRecorder

KEPT_RESULT_BYTES = 8 * 1024 * 1024
"""The newest calls' results are kept in memory up to this many bytes together (the latest
call's always, whatever its size)."""

NOT_RECORDED = (
    "This call's result was released from memory to keep the session small, and the session "
    "is not recorded (--no-record), so it cannot be read back. Recorded sessions (the "
    "default) keep every result and show old ones again."
)


class ResultReleased(EnvError):
    """An old call's result is no longer in memory and cannot be read back."""


def result_bytes(result: ToolResult) -> int:
    """About how many bytes `result`'s content holds in memory: its text and binary blocks
    (the rest is small beside them)."""
    total = 0
    for block in result.blocks:
        if isinstance(block, (ImageBlock, AudioBlock)):
            total += len(block.data)
        elif isinstance(block, ResourceBlock):
            total += len(block.blob or b"") + len(block.text or "")
        elif isinstance(block, TextBlock):
            total += len(block.text)
    return total


class ResultMemory:
    """Hears the session's finished calls, keeps the newest results and releases older ones."""

    def __init__(
        self, recorder: SessionRecorder | None, limit_bytes: int = KEPT_RESULT_BYTES
    ) -> None:
        """`recorder`: the session file old results are read back from (None: not recorded)."""
        self.recorder = recorder
        self.limit_bytes = limit_bytes
        self.kept: deque[tuple[CallRecord, int]] = deque()
        """The calls whose results are in memory, oldest first, with their sizes."""
        self.kept_bytes = 0

    def on_event(self, event: SessionEvent) -> None:
        if isinstance(event, CallFinished):
            self.keep(event.record)

    def keep(self, record: CallRecord) -> None:
        """Keep `record`'s result, releasing the oldest kept until the rest fits."""
        if not record.is_call or record.result is None:
            return
        size = result_bytes(record.result)
        self.kept.append((record, size))
        self.kept_bytes += size
        while self.kept_bytes > self.limit_bytes and len(self.kept) > 1:
            oldest, oldest_size = self.kept.popleft()
            self.kept_bytes -= oldest_size
            release(oldest)

    def read_back(self, record: CallRecord) -> ToolResult:
        """A released call's full result, read from the session file (slow: run it in a
        thread). Raises ResultReleased, in plain words, when it cannot be."""
        from fleet_tui.session.reader import load_session  # the session file's models: here only

        if self.recorder is None:
            raise ResultReleased(NOT_RECORDED)
        seq = self.recorder.call_seq(record.number)
        self.recorder.flush()
        session = load_session(self.recorder.path)
        step = next((s for s in session.steps() if s.call.seq == seq), None)
        if seq is None or step is None or step.result is None:
            raise ResultReleased(
                f"This call's result was released from memory and is not in the session file "
                f"{self.recorder.path}."
            )
        return session.tool_result(step.result.result)


def release(record: CallRecord) -> None:
    """Let go of `record`'s content; its reward, done flag, error flag and timings stay."""
    if record.result is not None:
        record.result = record.result.model_copy(
            update={"blocks": [], "raw": None, "structured": None}
        )
        record.released = True
