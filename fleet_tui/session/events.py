"""The events of a recorded session: one pydantic model per event type, one JSON line each.

Images never travel inline: a recorded result holds `StoredImage` blocks that name a file
beside the session by the SHA-256 of its bytes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from fleet_tui.envs.base import (
    AudioBlock,
    BaseToolResult,
    ContentBlock,
    EnvInfo,
    ResourceBlock,
    ResourceLinkBlock,
    Task,
    TextBlock,
    UnknownBlock,
    Verdict,
)

FORMAT_VERSION = 1


class StoredImage(BaseModel):
    """An image block whose bytes live in a file named by their SHA-256."""

    type: Literal["image"] = "image"
    mime_type: str = "image/png"
    sha256: str
    file: str
    """Path of the image file, relative to the session file's folder."""


RecordedBlock = Annotated[
    TextBlock | StoredImage | AudioBlock | ResourceBlock | ResourceLinkBlock | UnknownBlock,
    Field(discriminator="type"),
]


class RecordedResult(BaseToolResult):
    """A ToolResult as it is written to a session file (images by reference, no raw copy)."""

    blocks: list[RecordedBlock] = Field(default_factory=list)


class _Event(BaseModel):
    seq: int
    """Position in the session, from 1."""
    at: str
    """When it happened (ISO 8601, UTC)."""


class SessionStart(_Event):
    event: Literal["session"] = "session"
    version: int = FORMAT_VERSION
    tool: str = "fleet-tui"


class ConnectEvent(_Event):
    event: Literal["connect"] = "connect"
    target: dict[str, Any] = Field(default_factory=dict)
    info: EnvInfo | None = None
    tools: list[str] = Field(default_factory=list)


class ResetEvent(_Event):
    event: Literal["reset"] = "reset"
    seed: int | None = None
    success: bool = True
    message: str = ""
    result: RecordedResult | None = None


class CallEvent(_Event):
    """A tool call, written before it is sent."""

    event: Literal["call"] = "call"
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class ResultEvent(_Event):
    """The answer to the call whose seq is `call_seq`."""

    event: Literal["result"] = "result"
    call_seq: int
    result: RecordedResult


class TaskEvent(_Event):
    """The current task changed (the whole task, so a session file stands on its own)."""

    event: Literal["task"] = "task"
    task: Task | None = None


class VerifyEvent(_Event):
    event: Literal["verify"] = "verify"
    task_key: str | None = None
    final_answer: str | None = None
    after_seq: int | None = None
    """The seq of the last call before this verification (the step it followed)."""
    verdict: Verdict


class ErrorEvent(_Event):
    """Something failed outside a tool result (a call that raised, a lost connection)."""

    event: Literal["error"] = "error"
    message: str
    call_seq: int | None = None


SessionEvent = Annotated[
    SessionStart
    | ConnectEvent
    | ResetEvent
    | CallEvent
    | ResultEvent
    | TaskEvent
    | VerifyEvent
    | ErrorEvent,
    Field(discriminator="event"),
]

EVENT_ADAPTER: TypeAdapter[SessionEvent] = TypeAdapter(SessionEvent)

# Re-exported so readers can rebuild full ToolResults.
__all__ = [
    "EVENT_ADAPTER",
    "CallEvent",
    "ConnectEvent",
    "ContentBlock",
    "ErrorEvent",
    "RecordedBlock",
    "RecordedResult",
    "ResetEvent",
    "ResultEvent",
    "SessionEvent",
    "SessionStart",
    "StoredImage",
    "TaskEvent",
    "VerifyEvent",
]
