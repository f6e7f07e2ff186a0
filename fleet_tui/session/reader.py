"""Load a session file back: events in order, calls paired with their results.

A session cut short by a crash is still readable: a truncated or garbled last line is
skipped and reported in `Session.problems`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from fleet_tui.envs.base import (
    ContentBlock,
    EnvError,
    ImageBlock,
    ResourceBlock,
    Task,
    ToolResult,
)
from fleet_tui.session.events import (
    EVENT_ADAPTER,
    CallEvent,
    ConnectEvent,
    RecordedBlock,
    RecordedResult,
    ResultEvent,
    SessionEvent,
    StoredBlob,
    StoredBlock,
    StoredImage,
    StoredJson,
    TaskEvent,
    VerifyEvent,
)
from fleet_tui.text import one_line

BLOCK_ADAPTER: TypeAdapter[ContentBlock] = TypeAdapter(ContentBlock)


@dataclass
class Step:
    """One recorded call and, if it came back before the session ended, its result."""

    call: CallEvent
    result: ResultEvent | None = None


@dataclass
class Session:
    path: Path
    events: list[SessionEvent] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def steps(self) -> list[Step]:
        """Every call in order, each with its result."""
        results = {e.call_seq: e for e in self.events if isinstance(e, ResultEvent)}
        return [
            Step(call=e, result=results.get(e.seq)) for e in self.events if isinstance(e, CallEvent)
        ]

    def task(self) -> Task | None:
        """The last task the session switched to."""
        tasks = [e.task for e in self.events if isinstance(e, TaskEvent)]
        return tasks[-1] if tasks else None

    def connect(self) -> ConnectEvent | None:
        return next((e for e in self.events if isinstance(e, ConnectEvent)), None)

    def verdicts(self) -> list[VerifyEvent]:
        return [e for e in self.events if isinstance(e, VerifyEvent)]

    def tool_result(self, recorded: RecordedResult) -> ToolResult:
        """Rebuild a full ToolResult, reading images and big blocks back from beside the
        session file."""
        blocks = [self.content_block(block) for block in recorded.blocks]
        fields = recorded.model_dump(exclude={"blocks", "structured_stored"})
        if recorded.structured_stored is not None:
            fields["structured"] = self._stored_value(recorded.structured_stored, json.loads)
        return ToolResult(blocks=blocks, **fields)

    def content_block(self, block: RecordedBlock) -> Any:
        """A recorded block as it came, its bytes or JSON read back from beside the session."""
        if isinstance(block, StoredImage):
            data = self._stored_bytes(block.file, "image")
            return ImageBlock(mime_type=block.mime_type, data=data)
        if isinstance(block, StoredBlob):
            data = self._stored_bytes(block.file, "blob")
            fields = block.model_dump(include={"annotations", "uri", "mime_type"})
            return ResourceBlock(blob=data, **fields)
        if isinstance(block, StoredBlock):
            return self._stored_value(block, BLOCK_ADAPTER.validate_json)
        return block

    def _stored_bytes(self, file: str, what: str) -> bytes:
        """The bytes of a file stored beside the session; EnvError when it cannot be read."""
        path = self.path.parent / file
        try:
            return path.read_bytes()
        except OSError as error:
            raise EnvError(f"session {what} missing: {path} ({error.strerror})") from None

    def _stored_value(self, stored: StoredJson, parse: Callable[[bytes], Any]) -> Any:
        data = self._stored_bytes(stored.file, "block")
        try:
            return parse(data)
        except ValueError as error:  # pydantic's ValidationError is one
            raise EnvError(
                f"session block {self.path.parent / stored.file} is unreadable "
                f"({one_line(str(error), 120)})"
            ) from None


def load_session(path: str | Path) -> Session:
    """Read a session file; raises EnvError (one line) when it cannot be read at all."""
    session = Session(path=Path(path))
    try:
        lines = session.path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as error:
        raise EnvError(f"cannot read session file {path}: {error.strerror}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            session.events.append(EVENT_ADAPTER.validate_json(line))
        except ValidationError as error:
            last = number == len(lines)
            what = "truncated last line" if last else "unreadable line"
            session.problems.append(f"line {number}: {what} skipped ({one_line(str(error), 120)})")
    if not session.events:
        raise EnvError(f"{path} holds no session events")
    return session
