"""The events of a recorded session: one pydantic model per event type, one JSON line each.

Images never travel inline: a recorded result holds `StoredImage` blocks that name a file
beside the session by the SHA-256 of its bytes, and binary resource contents `StoredBlob`
blocks the same way. Neither do big blocks or structured content: `StoredBlock` and
`StoredJson` name a JSON file beside the session the same way.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from fleet_tui.envs.base import (
    AudioBlock,
    BaseToolResult,
    ContentBlock,
    EnvInfo,
    Model,
    ResourceBlock,
    ResourceLinkBlock,
    Task,
    TextBlock,
    UnknownBlock,
    Verdict,
)
from fleet_tui.envs.targets import (
    FleetTarget,
    LocalTarget,
    McpTarget,
    OpenEnvTarget,
    Target,
    load_target,
)
from fleet_tui.session_records import Agent, Unmade

FORMAT_VERSION = 1
IMAGES_FOLDER = ".images"
BLOCKS_FOLDER = ".blocks"
BLOBS_FOLDER = ".blobs"
"""Suffixes of the folders beside a session file (`NAME.images`, `NAME.blocks`, `NAME.blobs`)."""


class StoredImage(Model):
    """An image block whose bytes live in a file named by their SHA-256."""

    type: Literal["image"] = "image"
    mime_type: str = "image/png"
    sha256: str
    file: str
    """Path of the image file, relative to the session file's folder."""


class StoredBlob(Model):
    """A resource's binary contents, in a file named by their SHA-256."""

    type: Literal["stored_blob"] = "stored_blob"
    annotations: dict[str, Any] | None = None
    uri: str
    mime_type: str | None = None
    sha256: str
    file: str
    """Path of the file, relative to the session file's folder."""
    size_bytes: int


class StoredJson(Model):
    """A value too big to keep inline: its JSON lives in a file named by its SHA-256."""

    sha256: str
    file: str
    """Path of the JSON file, relative to the session file's folder."""
    size_bytes: int


class StoredBlock(StoredJson):
    """A content block too big to keep inline (its JSON in a file)."""

    type: Literal["stored"] = "stored"
    kind: str
    """The block's own type (`text`, `resource`, ...)."""


RecordedBlock = Annotated[
    TextBlock
    | StoredImage
    | StoredBlock
    | StoredBlob
    | AudioBlock
    | ResourceBlock
    | ResourceLinkBlock
    | UnknownBlock,
    Field(discriminator="type"),
]


class RecordedResult(BaseToolResult):
    """A ToolResult as it is written to a session file (images and big blocks by reference, no
    raw copy)."""

    blocks: list[RecordedBlock] = Field(default_factory=list)
    structured_stored: StoredJson | None = None
    """The structured content, when it was too big to keep inline (`structured` is then None)."""


class _Event(Model):
    seq: int
    """Position in the session, from 1."""
    at: str
    """When it happened (ISO 8601, UTC)."""


class SessionStart(_Event):
    event: Literal["session"] = "session"
    version: int = FORMAT_VERSION
    tool: str = "fleet-tui"


def _target_or_none(dump: Any) -> Target | None:
    """The recorded target, from this version's dump or an older one; None when there is none
    or it is not one (the rest of the event is still worth reading)."""
    if isinstance(dump, FleetTarget | LocalTarget | McpTarget | OpenEnvTarget):
        return dump  # a target being recorded
    if not isinstance(dump, dict) or not dump:
        return None
    try:
        return load_target(dump)
    except ValidationError:
        return None


class ConnectEvent(_Event):
    event: Literal["connect"] = "connect"
    target: Annotated[Target | None, BeforeValidator(_target_or_none)] = None
    info: EnvInfo | None = None
    tools: list[str] = Field(default_factory=list)


class ResetEvent(_Event):
    event: Literal["reset"] = "reset"
    seed: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    """What the reset passed besides the seed: env keywords, an OpenEnv task's split and index
    among them (replay passes them again)."""
    success: bool = True
    message: str = ""
    result: RecordedResult | None = None


class CallEvent(_Event):
    """A tool call, written before it is sent."""

    event: Literal["call"] = "call"
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    """What was sent (edited by the person, when `asked_arguments` is set)."""
    caller: str | None = None
    """`you` or `agent` (None in sessions recorded before calls said whose they were)."""
    agent: Agent | None = None
    """The agent's MCP session and client, for an agent's call."""
    asked_arguments: dict[str, Any] | None = None
    """What the agent asked, when the person edited its held call."""
    held_s: float | None = None
    """How long the call was held before it was sent (`at` is when it was sent)."""


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


class LogEvent(_Event):
    """A server's log message (`notifications/message`)."""

    event: Literal["log"] = "log"
    endpoint: str
    level: str
    logger: str | None = None
    data: Any = None


class ReadEvent(_Event):
    """A resource read, with the contents it gave or why it failed."""

    event: Literal["read"] = "read"
    uri: str
    endpoint: str = ""
    contents: list[RecordedBlock] = Field(default_factory=list)
    latency_s: float = 0.0
    error: str | None = None


class RecordedMessage(Model):
    role: str
    block: RecordedBlock


class PromptEvent(_Event):
    """A prompt got with its arguments, with the messages it gave or why it failed."""

    event: Literal["prompt"] = "prompt"
    name: str
    arguments: dict[str, str] = Field(default_factory=dict)
    endpoint: str = ""
    description: str | None = None
    messages: list[RecordedMessage] = Field(default_factory=list)
    error: str | None = None


class UnmadeEvent(_Event):
    """A call that never reached the env: an agent's held call the person refused, or that was
    abandoned (the agent went away, or fleet-tui closed, while it was held), or a call refused
    before it could be made (a tool the env does not have, arguments that break its schema)."""

    event: Literal["unmade"] = "unmade"
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    caller: str = "agent"
    agent: Agent | None = None
    asked_arguments: dict[str, Any] | None = None
    """What the agent asked, when the person edited the call before refusing it."""
    held_s: float | None = None
    outcome: Unmade
    message: str
    """The error the agent got (refused), or why the call was abandoned."""


class NoteEvent(_Event):
    """The person's note on a step, or its score, as they are now (a later one for the same
    step replaces it). Sessions recorded before notes existed have none."""

    event: Literal["note"] = "note"
    step_seq: int | None = None
    """The seq of the step's call or unmade event, when it has one."""
    tool: str
    note: str = ""
    score: int | None = None
    """+1 good, 0 neutral, -1 bad (None: not scored)."""


SessionEvent = Annotated[
    SessionStart
    | ConnectEvent
    | ResetEvent
    | CallEvent
    | ResultEvent
    | TaskEvent
    | VerifyEvent
    | ErrorEvent
    | LogEvent
    | ReadEvent
    | PromptEvent
    | UnmadeEvent
    | NoteEvent,
    Field(discriminator="event"),
]

EVENT_ADAPTER: TypeAdapter[SessionEvent] = TypeAdapter(
    SessionEvent, config=ConfigDict(defer_build=True)
)
"""Reads any event (its validator is built when it first reads one, as the models' are)."""

# Re-exported so readers can rebuild full ToolResults.
__all__ = [
    "EVENT_ADAPTER",
    "CallEvent",
    "ConnectEvent",
    "ContentBlock",
    "ErrorEvent",
    "LogEvent",
    "NoteEvent",
    "PromptEvent",
    "ReadEvent",
    "RecordedBlock",
    "RecordedMessage",
    "RecordedResult",
    "ResetEvent",
    "ResultEvent",
    "SessionEvent",
    "SessionStart",
    "StoredBlob",
    "StoredBlock",
    "StoredImage",
    "StoredJson",
    "TaskEvent",
    "UnmadeEvent",
    "VerifyEvent",
]
