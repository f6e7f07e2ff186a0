"""The one protocol every environment adapter speaks, and the models that cross it.

The UI and the headless commands talk to an `Env` and nothing else: they never import
fleet-python, mcp, httpx or websockets. An adapter (Fleet, OpenEnv, plain MCP) turns its own
wire format into these models.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, Literal, Protocol, runtime_checkable

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationInfo,
)

from fleet_tui.envs.errors import EnvError as EnvError
from fleet_tui.envs.server_info import ServerInfo


def _bytes_from_base64_json(value: Any, info: ValidationInfo) -> Any:
    """Base64 text back to bytes when validating JSON; Python input (raw bytes) is unchanged."""
    if info.mode == "json" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except binascii.Error as error:
            raise ValueError(f"not base64 ({error})") from None
    return value


# Bytes travel as base64 when a model is dumped to JSON (session files, --json output), and
# come back as the same bytes when that JSON is validated.
Base64Bytes = Annotated[
    bytes,
    BeforeValidator(_bytes_from_base64_json),
    PlainSerializer(
        lambda b: base64.b64encode(b).decode("ascii"), return_type=str, when_used="json"
    ),
]


class Model(BaseModel):
    """The base of the models here and of the session's (catalog, call records, session
    events): each builds its validator when first used, not when its module is imported
    (building them all took about 0.1 s of every start, before the first frame, for models
    most runs use later or never)."""

    model_config = ConfigDict(defer_build=True)


Progress = Callable[[str], None]

COMPUTER_TOOL = "computer"
"""The tool computer-use envs act through (screenshots, clicks, keys)."""
"""A callback that receives one line of human-readable progress ("Creating instance…")."""


# ---------------------------------------------------------------------------------------------
# Tools


class Tool(Model):
    """One MCP tool, with the endpoint that owns it in a union of endpoints."""

    name: str
    description: str = ""
    title: str | None = None
    input_schema: dict[str, Any] = Field(default_factory=lambda: {"type": "object"})
    output_schema: dict[str, Any] | None = None
    endpoint: str = ""
    """The URL (or other label) of the endpoint that answers calls to this tool."""
    broken: str | None = None
    """Why the tool cannot be used (its listing was rejected), or None."""
    annotations: dict[str, Any] | None = None
    """The server's hints as on the wire: title, readOnlyHint, destructiveHint, ..."""
    task_support: str | None = None
    """`execution.taskSupport`: "required" when the tool only runs as a task."""


class ToolConflict(Model):
    """Two endpoints offer a tool of the same name with different schemas (first one wins)."""

    name: str
    kept_endpoint: str
    other_endpoint: str


# ---------------------------------------------------------------------------------------------
# Results: an ordered list of content blocks. Each keeps the server's content annotations
# (audience, priority, lastModified) as they arrived on the wire.


class TextBlock(Model):
    type: Literal["text"] = "text"
    annotations: dict[str, Any] | None = None
    text: str

    def parsed_json(self) -> Any | None:
        """The text parsed as JSON when it is a JSON object or array, else None."""
        stripped = self.text.lstrip()
        if not stripped or stripped[0] not in "[{":
            return None
        try:
            return json.loads(self.text)
        except ValueError:
            return None


class ImageBlock(Model):
    type: Literal["image"] = "image"
    annotations: dict[str, Any] | None = None
    mime_type: str = "image/png"
    data: Base64Bytes


class AudioBlock(Model):
    type: Literal["audio"] = "audio"
    annotations: dict[str, Any] | None = None
    mime_type: str = "audio/wav"
    data: Base64Bytes


class ResourceBlock(Model):
    """An embedded resource: text or binary contents at a URI."""

    type: Literal["resource"] = "resource"
    annotations: dict[str, Any] | None = None
    uri: str
    mime_type: str | None = None
    text: str | None = None
    blob: Base64Bytes | None = None


class ResourceLinkBlock(Model):
    type: Literal["resource_link"] = "resource_link"
    annotations: dict[str, Any] | None = None
    uri: str
    name: str = ""
    description: str | None = None
    mime_type: str | None = None


class UnknownBlock(Model):
    """A content block of a type we do not know; kept whole so nothing is lost."""

    type: Literal["unknown"] = "unknown"
    raw: Any


ContentBlock = Annotated[
    TextBlock | ImageBlock | AudioBlock | ResourceBlock | ResourceLinkBlock | UnknownBlock,
    Field(discriminator="type"),
]


class BaseToolResult(Model):
    """The fields of a tool result. `ToolResult` holds the content blocks themselves; a session
    file's `RecordedResult` holds images by reference."""

    blocks: list[Any] = Field(default_factory=list)
    """The ordered content blocks (each subclass says of which types)."""
    is_error: bool = False
    structured: Any | None = None
    """The result's structured content, if any."""
    problems: list[str] = Field(default_factory=list)
    """What in the result broke the protocol and was ignored (the rest is shown)."""
    error_kind: str | None = None
    """A short name for the kind of failure when `is_error` (for example an OpenEnv error_type)."""
    latency_s: float = 0.0
    endpoint: str = ""
    size_bytes: int = 0
    """Approximate size of the result on the wire."""
    reward: float | None = None
    done: bool | None = None
    """Episode reward and done flag, for environments that have episodes (OpenEnv)."""
    rejected: bool = False
    """The env refused the action itself (an invalid action): no step was taken."""


class ToolResult(BaseToolResult):
    """What one tool call gave back."""

    blocks: list[ContentBlock] = Field(default_factory=list)
    raw: Any | None = None
    """The result as it arrived (JSON-compatible), for the Raw view."""

    def text(self) -> str:
        """All text blocks joined by newlines."""
        return "\n".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    def images(self) -> list[ImageBlock]:
        return [b for b in self.blocks if isinstance(b, ImageBlock)]


# ---------------------------------------------------------------------------------------------
# Environment description and state


class EndpointState(StrEnum):
    CONNECTING = "connecting"
    UP = "up"
    DOWN = "down"
    CLOSED = "closed"


class EndpointStatus(Model):
    url: str
    """The endpoint's name: its URL, or `stdio: COMMAND` for a server run over stdio."""
    state: EndpointState = EndpointState.CONNECTING
    tool_count: int = 0
    error: str | None = None
    transport: Literal["http", "sse", "stdio", "websocket"] = "http"
    """How it is reached: "sse" when an HTTP endpoint answered as an SSE endpoint,
    "websocket" for an OpenEnv session."""
    output: list[str] = Field(default_factory=list)
    """The last lines a stdio server wrote on stderr."""
    server: ServerInfo | None = None
    """What the server said about itself when the connection opened (None before)."""


class EnvInfo(Model):
    """What the status bar and `--json` outputs say about the environment."""

    kind: Literal["fleet", "local", "mcp", "openenv"]
    env_key: str | None = None
    version: str | None = None
    instance_id: str | None = None
    region: str | None = None
    base_url: str | None = None
    ttl_seconds: int | None = None
    created_here: bool = False
    """True when fleet-tui created the instance (and so must close it unless kept)."""
    keep: bool = False


class ResetResult(Model):
    success: bool = True
    message: str = ""
    seed: int | None = None
    result: ToolResult | None = None
    """For episodic envs, the first observation after reset."""
    options: dict[str, Any] = Field(default_factory=dict)
    """What the reset was asked besides the seed (an OpenEnv task's split and index)."""
    latency_s: float = 0.0
    at: float | None = None
    """When the reset answered (seconds since the epoch)."""


# ---------------------------------------------------------------------------------------------
# Tasks and verdicts


class Task(Model):
    """A task in Fleet's task-file format, or one served by an OpenEnv task route."""

    model_config = ConfigDict(extra="allow")

    key: str
    prompt: str = ""
    env_key: str | None = None
    version: str | None = None
    data_key: str | None = None
    env_variables: dict[str, Any] = Field(default_factory=dict)
    task_modality: str | None = None
    verifier_code: str | None = None
    split: str | None = None
    index: int | None = None


class Verdict(Model):
    """The outcome of running one verifier."""

    task_key: str | None = None
    success: bool
    """True when the verifier ran without raising (not whether the task passed)."""
    score: float | None = None
    passed: bool = False
    stdout: str = ""
    error_type: str | None = None
    error_message: str | None = None
    traceback: str | None = None
    execution_time_ms: float | None = None
    mode: Literal["remote", "local", "openenv"] = "remote"


# ---------------------------------------------------------------------------------------------
# The protocol


@runtime_checkable
class Env(Protocol):
    """An environment fleet-tui can drive. All methods are coroutines run on one event loop.

    Lifecycle: `await env.connect()`, any number of calls, `await env.close()`. `close()` is
    idempotent and releases everything the env created (unless the user asked to keep it).
    """

    info: EnvInfo

    async def connect(self, progress: Progress | None = None) -> None:
        """Provision or attach, then open the MCP (or session) connections."""
        ...

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        """The union of tools; cached after the first listing unless `refresh`. `connect` and
        `reconnect` leave the cache fresh or empty, so the listing after them is not repeated."""
        ...

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Call one tool. A tool-level failure is a result with `is_error`, not an exception."""
        ...

    async def reset(
        self, seed: int | None = None, *, options: dict[str, Any] | None = None
    ) -> ResetResult:
        """Start again: what the env has to say about it. `options` are env keywords (an
        OpenEnv env's reset arguments). An episodic env (OpenEnv) gives the episode's first
        observation in `result`; a Fleet instance restores its seed state and gives the
        manager's message; plain MCP endpoints have no reset and raise EnvError."""
        ...

    def endpoints(self) -> list[EndpointStatus]: ...

    def warnings(self) -> list[str]:
        """Things the user should know that did not stop the env working."""
        ...

    async def close(self) -> None: ...
