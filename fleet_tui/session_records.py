"""What a session is made of: its connection state, the call records and their statuses, the
episode, and the typed events `controller.SessionController` sends its listeners."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fleet_tui.envs.base import EnvInfo, Model, ResetResult, Task, ToolResult, Verdict
from fleet_tui.envs.catalog import PromptResult, ReadResult
from fleet_tui.envs.server_events import ListChanged, ResourceUpdated, ServerLog, ServerTask
from fleet_tui.envs.targets import Target
from fleet_tui.envs.traffic import TrafficEntry
from fleet_tui.text import visible


class ConnectionState(StrEnum):
    IDLE = "idle"
    """Connecting was cancelled: nothing is open."""
    CONNECTING = "connecting"
    RECONNECTING = "reconnecting"
    """Reopening the connections of the env we have (its instance is kept)."""
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    """Connecting failed."""


class CallStatus(StrEnum):
    RUNNING = "running"
    OK = "ok"
    ERROR = "error"
    """The tool answered with an error (or a verifier could not run)."""
    FAILED = "failed"
    """No answer: the call (or a reset) raised."""
    CANCELLED = "cancelled"
    PASS = "pass"
    FAIL = "fail"
    HELD = "held"
    """An agent's call waiting to be released (paused, taken over, or at a breakpoint)."""


class Caller(StrEnum):
    """Who made a call: the person at the app, an agent through the MCP proxy, or a recorded
    session played back."""

    YOU = "you"
    AGENT = "agent"
    PLAYBACK = "playback"


class Agent(Model):
    """Which agent made a call: the MCP session its client holds on the proxy (`id`, the
    `Mcp-Session-Id` the proxy gave it: two clients, two ids) and the name and version its
    client gave in `clientInfo`, as far as it gave them."""

    id: str | None = None
    name: str | None = None
    version: str | None = None

    def __str__(self) -> str:
        """`planner 1.2 #62f65ca2`: the client's name and version, its session's first 8
        characters (control characters made visible: the client chose them)."""
        words = [visible(word) for word in (self.name, self.version) if word]
        if self.id:
            words.append(f"#{visible(self.id[:8])}")
        return " ".join(words) or "unnamed"


def who(caller: str | None, agent: Agent | None) -> str:
    """`you`, `agent`, or `agent planner 1.2 #62f65ca2` when the agent is known."""
    if caller == Caller.AGENT and agent is not None:
        return f"agent {agent}"
    return str(caller or Caller.YOU)


class Unmade(StrEnum):
    """Why an agent's held call never reached the env."""

    REFUSED = "refused"
    """The person answered it with an error."""
    ABANDONED = "abandoned"
    """The agent went away, or fleet-tui closed, while it was held."""
    UNKNOWN_TOOL = "unknown_tool"
    """The agent named a tool the env does not have: refused before reaching it."""
    INVALID_ARGUMENTS = "invalid_arguments"
    """The arguments broke the tool's input schema: refused before reaching the env."""


class CallRecord(Model):
    """One call (or another step worth keeping: a reset, a verdict) and how it went."""

    number: int
    tool: str
    """The tool's name, or `<reset>` / `<verify>` for the other steps."""
    arguments: dict[str, Any]
    status: CallStatus = CallStatus.RUNNING
    result: ToolResult | None = None
    message: str = ""
    """Why a call failed (when there is no result), or what another step said."""
    latency_s: float | None = None
    caller: Caller = Caller.YOU
    agent: Agent | None = None
    """Which agent, for an agent's call whose client is known."""
    asked_arguments: dict[str, Any] | None = None
    """What the agent asked, when the person edited its held call (`arguments`: what was
    sent)."""
    held_s: float | None = None
    """How long the call was held before it was released or answered (`latency_s` is the
    env's alone)."""
    unmade: Unmade | None = None
    """Why the call was never made, if it was not."""
    released: bool = False
    """The result's content was let go to bound memory (`result_memory`); its reward, done
    flag and status stay."""
    note: str = ""
    """What the person wrote about this step (`SessionHistory.annotate`)."""
    score: int | None = None
    """The person's score of this step: +1 good, 0 neutral, -1 bad (None: not scored)."""

    @property
    def outcome(self) -> str:
        """`completed` (the call reached the env, whatever it answered), else why it did not."""
        return str(self.unmade) if self.unmade is not None else "completed"

    @property
    def is_call(self) -> bool:
        return not self.tool.startswith("<")

    @property
    def is_running(self) -> bool:
        return self.status == CallStatus.RUNNING


@dataclass
class Episode:
    """The current episode of an env that has them (OpenEnv): the reset that started it (its
    seed, options, first observation and time), then each step the env took, with its reward
    and done flag. A reset or a reconnect starts a new one; an action the env refused is no
    step."""

    opening: CallRecord | None = None
    """The reset that started it: its seed and options (a task's split and index) in
    `arguments`, its observation in `result` (None: the env made no reset we know of)."""
    started_at: float | None = None
    """When that reset answered (seconds since the epoch)."""
    steps: int = 0
    last_reward: float | None = None
    total_reward: float = 0.0
    done: bool = False
    seen: bool = False
    """Whether any step reported a reward or done flag (the env has episodes)."""
    history: list[CallRecord] = field(default_factory=list)
    """The steps: each record's tool and arguments are the action, its result the
    observation with reward and done."""

    def record(
        self, reward: float | None, done: bool | None, step: CallRecord | None = None
    ) -> None:
        """Count one step the env took (with its record, when there is one)."""
        self.steps += 1
        if step is not None:
            self.history.append(step)
        if reward is not None or done is not None:
            self.seen = True
        if reward is not None:
            self.last_reward = reward
            self.total_reward += reward
        if done is not None:
            self.done = done


@dataclass(frozen=True)
class Connected:
    """A new env connected (not a reopened one): what it is and the names of its tools."""

    target: Target
    info: EnvInfo
    tools: list[str]


@dataclass(frozen=True)
class ResetDone:
    """The env reset: asked by someone (`seed`, `options`: what was asked), or the reset an
    episodic env's session opened with."""

    outcome: ResetResult
    seed: int | None = None
    options: dict[str, Any] | None = None


@dataclass(frozen=True)
class CallAdded:
    record: CallRecord


@dataclass(frozen=True)
class CallStarted:
    """A record's call is sent to the env now (with the arguments it has by then)."""

    record: CallRecord


@dataclass(frozen=True)
class CallFinished:
    record: CallRecord


@dataclass(frozen=True)
class CallUpdated:
    """A record changed before it finished: an agent's call held, released or edited."""

    record: CallRecord


@dataclass(frozen=True)
class CallNoted:
    """The person wrote a note on a record or scored it (the record holds both as they are
    now)."""

    record: CallRecord


@dataclass(frozen=True)
class Progress:
    """A line of connection progress (may come from another thread)."""

    line: str


@dataclass(frozen=True)
class EnvClosed:
    info: EnvInfo
    failure: str | None = None
    """Why closing failed, if it did."""


@dataclass(frozen=True)
class CallProgress:
    """A server's progress report for a running call (`total` None: unknown)."""

    record: CallRecord
    progress: float
    total: float | None
    message: str | None


@dataclass(frozen=True)
class CallTaskStatus:
    """A running call made as an MCP task: the task as last seen (created, polled, cancelled)."""

    record: CallRecord
    task: ServerTask


@dataclass(frozen=True)
class Traffic:
    """A JSON-RPC message in or out, or an HTTP request (kept in `SessionController.traffic`)."""

    entry: TrafficEntry


@dataclass(frozen=True)
class ResourceRead:
    """A resource was read: its result, or why there is none."""

    uri: str
    result: ReadResult | None
    error: str | None = None


@dataclass(frozen=True)
class PromptGot:
    """A prompt was got with `arguments`: its result, or why there is none."""

    name: str
    arguments: dict[str, str]
    result: PromptResult | None
    error: str | None = None


@dataclass(frozen=True)
class TaskChosen:
    """The session works on `task` from now on (its verdicts are for it)."""

    task: Task


@dataclass(frozen=True)
class Verified:
    """A verifier ran on the env as it is now (with the final answer it was given)."""

    verdict: Verdict
    final_answer: str | None = None


SessionEvent = (
    Connected
    | ResetDone
    | CallAdded
    | CallStarted
    | CallUpdated
    | CallFinished
    | CallNoted
    | Progress
    | EnvClosed
    | CallProgress
    | CallTaskStatus
    | ServerLog
    | ListChanged
    | ResourceUpdated
    | Traffic
    | ResourceRead
    | PromptGot
    | TaskChosen
    | Verified
)
"""`ServerLog` (a server's log message), `ListChanged` (its tools, resources or prompts
changed) and `ResourceUpdated` (a subscribed resource changed) come from `envs.server_events`."""


def reset_arguments(outcome: ResetResult) -> dict[str, Any]:
    """What a reset was asked: its seed (the one the env picked, if it did) and options."""
    seed = {} if outcome.seed is None else {"seed": outcome.seed}
    return {**seed, **outcome.options}
