"""The session a person drives: one target, its env and tools, the calls made, the episode.

`SessionController` knows no UI. Its methods are the things a person does (connect,
reconnect, call, reset, start a task, record a verdict, close); the app runs the slow ones in
its workers and shows what they return. Changes others follow (a call added or finished, a line
of connection progress, an env closed) reach the listeners given to `subscribe` as typed events,
in the order they happen.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.base import (
    Env,
    ResetResult,
    Task,
    Tool,
    ToolResult,
)
from fleet_tui.envs.capabilities import (
    Episodic,
    HearsServer,
    Reconnectable,
    ResetsIntoTask,
    SetsLogLevel,
    TellsRootsChanged,
)
from fleet_tui.envs.catalog import PromptResult, ReadResult
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.server_events import (
    ServerEvent,
    ServerTask,
    ToolProgress,
    check_level,
    listen_to_servers,
)
from fleet_tui.envs.server_requests import AnswersServers, OffersRoots, root_problem
from fleet_tui.envs.targets import InstanceTarget, Target
from fleet_tui.envs.traffic import TrafficEntry, TrafficLog, listen_to_traffic
from fleet_tui.result_memory import ResultMemory
from fleet_tui.session_catalog import CatalogSession
from fleet_tui.session_env import EnvSession
from fleet_tui.session_history import SessionHistory
from fleet_tui.session_records import (
    CallAdded,
    Caller,
    CallProgress,
    CallRecord,
    CallStarted,
    CallStatus,
    CallTaskStatus,
    Connected,
    ConnectionState,
    EnvClosed,
    Episode,
    Progress,
    PromptGot,
    ResetDone,
    ResourceRead,
    TaskChosen,
    Traffic,
    reset_arguments,
)
from fleet_tui.tasks.provision import task_target
from fleet_tui.tasks.start import COMPUTER_TOOL, same_env
from fleet_tui.text import describe_error

if TYPE_CHECKING:
    from fleet_tui.session.recorder import SessionRecorder

CLOSE_TIMEOUT_S = 60.0


class SessionController(SessionHistory, CatalogSession, EnvSession):
    """The target, env, tools, connection state, episode and queued actions; the call records
    and the listeners (`SessionHistory`); the servers' resources and prompts
    (`CatalogSession`); what the env tells of itself (`EnvSession`)."""

    def __init__(
        self,
        target: Target,
        env_factory: Callable[[Target], Env] = make_env,
        requests: AnswersServers | None = None,
        recorder: SessionRecorder | None = None,
    ) -> None:
        """`requests` answers what servers ask (elicitation, sampling, roots, sign-in: see
        envs/server_requests.py); what it does not answer is not declared to them.
        `recorder` records the session: it hears every event first."""
        super().__init__()
        self.target = target
        self.env_factory = env_factory
        self.env: Env | None = None
        self.tools: list[Tool] = []
        self.state = ConnectionState.CONNECTING
        self.connected_at: float | None = None
        self.episode = Episode()
        self.pending_actions: list[dict[str, Any]] = []
        """Computer actions asked for while a call ran: they run after it."""
        self.env_closes: set[asyncio.Task[None]] = set()
        """Closes under way, each in a task of its own that an exit does not cancel."""
        self.close_problems: list[str] = []
        """Why a close left something running (to tell the user at the end)."""
        self._seen_warnings: set[str] = set()
        if recorder is not None:
            self.subscribe(recorder.on_event)
        self.result_memory = ResultMemory(recorder)
        """Keeps the newest results in memory; older ones are read back from the recording."""
        self.subscribe(self.result_memory.on_event)
        self._requests = requests
        self._roots_set: list[str] | None = None
        """The roots given to `set_roots`, offered instead of the port's."""
        self.client_handlers = ClientHandlers().answer_with(requests)
        """What the session does with what MCP servers send on their own; given to every env
        that hears servers, before it connects."""
        if isinstance(requests, OffersRoots):
            self.client_handlers.roots = self.roots
        listen_to_servers(self.client_handlers, self._server_event)
        self.traffic = TrafficLog()
        """The latest JSON-RPC messages and HTTP requests (bounded: see `envs.traffic`)."""
        listen_to_traffic(self.client_handlers, self._traffic_entry)

    def _progress(self, line: str) -> None:
        self._emit(Progress(line))

    def _traffic_entry(self, entry: TrafficEntry) -> None:
        self._emit(Traffic(self.traffic.add(entry)))

    def add_traffic(self, entry: TrafficEntry) -> None:
        """Keep a message of another side of the session (an agent's with the proxy), on the
        session's loop, as its traffic with the env is kept."""
        self._traffic_entry(entry)

    def _server_event(self, event: ServerEvent) -> None:
        """A server's log message or list change as it is; its progress and a task's status
        with the call's record (the latest running call of that tool)."""
        if not isinstance(event, ToolProgress | ServerTask):
            self._emit(event)
            return
        running = (r for r in reversed(self.records) if r.tool == event.tool and r.is_running)
        if (record := next(running, None)) is None:
            return
        if isinstance(event, ServerTask):
            self._emit(CallTaskStatus(record, event))
        else:
            self._emit(CallProgress(record, event.progress, event.total, event.message))

    # -- what the session has ----------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.env is not None and self.state == ConnectionState.CONNECTED

    @property
    def computer_use(self) -> bool:
        return any(t.name == COMPUTER_TOOL for t in self.tools)

    def tool_named(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    def new_warnings(self) -> list[str]:
        """The env's warnings not returned before (a failed heartbeat, a tool-name clash, ...)."""
        warnings = self.env.warnings() if self.env else []
        fresh = [w for w in warnings if w not in self._seen_warnings]
        self._seen_warnings.update(fresh)
        return fresh

    # -- connecting --------------------------------------------------------------------------------

    def start_connecting(self, reopen: bool = False) -> None:
        """Mark the session as connecting (`reopen`: reopening the connected env's connections,
        keeping its instance); `connect` then does it."""
        reopening = reopen and self.connected
        self.state = ConnectionState.RECONNECTING if reopening else ConnectionState.CONNECTING

    async def connect(self, *, list_tools: bool = True) -> list[Tool]:
        """Connect (or reopen, see `start_connecting`) and list the tools (unless told not to:
        a command that needs none, as listing is a step on an OpenEnv session). A cancelled
        connect closes what it created; a failed one leaves the session disconnected and
        raises."""
        env = self.env
        reopening = self.state == ConnectionState.RECONNECTING and isinstance(env, Reconnectable)
        try:
            if reopening and isinstance(env, Reconnectable):
                opened: Env = env
                await env.reconnect(self._progress)
            else:
                if self.env is not None:
                    await self.close_env()
                opened = self.env = self.env_factory(self.target)
                if isinstance(opened, HearsServer):
                    opened.listen(self.client_handlers)
                await opened.connect(self._progress)
            # connecting lists them, or left them unlisted
            tools = await opened.list_tools() if list_tools else []
        except asyncio.CancelledError:
            self._progress("Cancelled: closing what was created…")
            await asyncio.shield(self.close_env())
            self.state = ConnectionState.IDLE
            raise
        except Exception:
            self.state = ConnectionState.DISCONNECTED
            raise
        self.state = ConnectionState.CONNECTED
        self.connected_at = self.connected_at or time.monotonic()
        self.tools = tools
        if not reopening:
            self._emit(Connected(self.target, opened.info, [tool.name for tool in tools]))
        if isinstance(opened, Episodic):
            self._start_episode(opened)
        elif not reopening:  # another env: its own counters (a reopened instance goes on)
            self.episode = Episode()
        return tools

    def _start_episode(self, env: Episodic) -> None:
        """An episodic env's session opens with a reset (a reconnect too: a new session): a new
        episode, opened by that reset's record (the app shows its observation). The record is
        added finished, as a verdict's is: it was part of connecting, not a call."""
        self.episode = Episode()
        opening = env.last_reset
        if opening is None:
            return
        record = CallRecord(
            number=len(self.records) + 1,
            tool="<reset>",
            arguments=reset_arguments(opening),
            status=CallStatus.OK if opening.success else CallStatus.FAILED,
            result=opening.result,
            message=opening.message,
            latency_s=opening.latency_s,
        )
        self.records.append(record)
        self.episode = Episode(opening=record, started_at=opening.at)
        self._emit(ResetDone(opening, opening.seed))
        self._emit(CallAdded(record))

    async def refresh_tools(self) -> list[Tool]:
        """List the tools again (a server said they changed)."""
        if self.env is None or not self.connected:
            return self.tools
        self.tools = await self.env.list_tools(refresh=True)
        return self.tools

    async def set_log_level(self, level: str) -> list[str]:
        """Ask the servers for log messages from `level` up, now and after each (re)connect;
        one line per server that could not take it. ValueError for an unknown level."""
        self.client_handlers.log_level = check_level(level)
        env = self.env
        if not self.connected:
            return []
        if not isinstance(env, SetsLogLevel):
            return [f"{self.target.describe()} has no MCP servers to ask"]
        return await env.set_log_level(self.client_handlers.log_level)

    def roots(self) -> list[str]:
        """The root directories offered to servers that ask (paths or file:// URIs)."""
        if self._roots_set is not None:
            return list(self._roots_set)
        return list(self._requests.roots()) if isinstance(self._requests, OffersRoots) else []

    async def set_roots(self, roots: list[str]) -> list[str]:
        """Offer `roots` (`~` expanded) from now on and tell the connected servers they
        changed; one line per server that could not be told. ValueError, in plain words,
        when one is not a directory (the roots offered stay as they were)."""
        expanded = [r if r.startswith("file://") else os.path.expanduser(r) for r in roots]
        problems = [problem for root in expanded if (problem := root_problem(root)) is not None]
        if problems:
            raise ValueError("; ".join(problems))
        self._roots_set = expanded
        self.client_handlers.roots = self.roots
        env = self.env
        if not self.connected or not isinstance(env, TellsRootsChanged):
            return []
        return await env.roots_changed()

    # -- calls -------------------------------------------------------------------------------------

    async def call(self, record: CallRecord) -> ToolResult | None:
        """Make the call `record` stands for; None when it raised (`record.message` says why).
        A computer action that shows nothing is followed by a screenshot (queued)."""
        with contextlib.suppress(Exception):
            return await self._call(record)
        return None

    async def call_tool(self, tool: str, arguments: dict[str, Any]) -> ToolResult:
        """Call `tool` as a person does (a record, its events), raising what the env raised:
        for front ends that report an error rather than show it (headless commands)."""
        return await self._call(self.add_record(tool, arguments))

    async def _call(self, record: CallRecord) -> ToolResult:
        assert self.env is not None
        started = time.monotonic()
        self._emit(CallStarted(record))
        try:
            result = await self.env.call_tool(record.tool, record.arguments)
        except asyncio.CancelledError:
            self._finish(record, CallStatus.CANCELLED, started, message="Cancelled by the user.")
            self.pending_actions.clear()
            raise
        except Exception as error:
            self._finish(record, CallStatus.FAILED, started, message=describe_error(error))
            raise
        record.result = result
        if not result.rejected:  # before listeners hear of the call
            self.episode.record(result.reward, result.done, record)
        self._finish(record, CallStatus.ERROR if result.is_error else CallStatus.OK, started)
        shown = result.images() and self.computer_use
        acted = record.tool == COMPUTER_TOOL and record.arguments.get("action") != "screenshot"
        if acted and not shown and record.caller == Caller.YOU:
            self.pending_actions.insert(0, {"action": "screenshot"})
        return result

    def forget_records(self) -> None:
        """Drop the records and the episode's steps: a session that serves one command after
        another (the warm-session daemon) keeps nothing of one for the next."""
        self.records.clear()
        self.episode = Episode()

    def next_pending(self) -> CallRecord | None:
        """A record for the next queued computer action, if connected."""
        if not (self.pending_actions and self.state == ConnectionState.CONNECTED):
            return None
        return self.add_record(COMPUTER_TOOL, self.pending_actions.pop(0))

    # -- resources and prompts -------------------------------------------------------------------

    async def read_resource(self, uri: str) -> ReadResult:
        """Read a resource; listeners hear of it (`ResourceRead`), also when it fails."""
        try:
            result = await self.mcp_catalog().read(uri)
        except Exception as error:
            self._emit(ResourceRead(uri, None, describe_error(error)))
            raise
        self._emit(ResourceRead(uri, result))
        return result

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> PromptResult:
        """Get a prompt; listeners hear of it (`PromptGot`), also when it fails."""
        try:
            result = await self.mcp_catalog().get_prompt(name, arguments)
        except Exception as error:
            self._emit(PromptGot(name, arguments, None, describe_error(error)))
            raise
        self._emit(PromptGot(name, arguments, result))
        return result

    # -- reset, tasks, verdicts --------------------------------------------------------------------

    async def reset(
        self,
        seed: int | None,
        options: dict[str, Any] | None = None,
        *,
        caller: Caller = Caller.YOU,
    ) -> tuple[CallRecord, ResetResult | None]:
        """Reset the env (a new episode) with env keywords `options`, if any; the outcome is
        None when the reset raised."""
        asked = ({} if seed is None else {"seed": seed}) | (options or {})  # as reset_arguments
        record = self.add_record("<reset>", asked, caller=caller)
        with contextlib.suppress(Exception):
            return record, await self._reset(record, seed, options)
        return record, None

    async def reset_env(self, seed: int | None) -> ResetResult:
        """`reset`, raising what the env raised (see `call_tool`)."""
        record = self.add_record("<reset>", {} if seed is None else {"seed": seed})
        return await self._reset(record, seed, None)

    async def _reset(
        self, record: CallRecord, seed: int | None, options: dict[str, Any] | None
    ) -> ResetResult:
        assert self.env is not None
        started = time.monotonic()
        try:
            outcome = await self.env.reset(seed, options=options)
        except Exception as error:
            self._finish(record, CallStatus.FAILED, started, message=describe_error(error))
            raise
        record.arguments = reset_arguments(outcome)
        self._emit(ResetDone(outcome, seed, options))
        self._finish_reset(record, outcome, started)
        return outcome

    def _finish_reset(self, record: CallRecord, outcome: ResetResult, started: float) -> None:
        """A new episode opened by `outcome`, and its record finished."""
        record.result = outcome.result
        self.episode = Episode(opening=record, started_at=outcome.at)
        message = outcome.message or ("Reset done." if outcome.success else "Reset failed.")
        status = CallStatus.OK if outcome.success else CallStatus.FAILED
        self._finish(record, status, started, message=message)

    def switch_target(self, target: Target) -> None:
        """Aim at another target; the next `connect` closes the env we have and opens its."""
        self.target = target

    def start_task(self, task: Task) -> bool:
        """Aim the session at `task`: True when its env must be provisioned (connect), False
        when resetting the env we have starts it. EnvError when its env cannot be reached."""
        self.choose_task(task)
        env = self.env
        fleet = isinstance(self.target, InstanceTarget)
        if env is None or (fleet and not same_env(task, env.info)):
            self.switch_target(task_target(task, self.target))
            return True
        if task.split is not None and task.index is not None and isinstance(env, ResetsIntoTask):
            env.task = (task.split, task.index)
        return False

    def choose_task(self, task: Task) -> None:
        """The session works on `task` from now on (`start_task` chooses it too)."""
        self._emit(TaskChosen(task))

    # -- closing -----------------------------------------------------------------------------------

    async def close_env(self) -> None:
        """Close the env in a task of its own: if the app exits meanwhile (a signal, a crash),
        its workers are cancelled but the close goes on, and `close` waits for it."""
        env, self.env = self.env, None
        if env is None:
            return
        closing = asyncio.create_task(self._close(env), name="fleet-tui-close")
        self.env_closes.add(closing)
        closing.add_done_callback(self.env_closes.discard)
        await asyncio.shield(closing)

    async def _close(self, env: Env) -> None:
        warnings_before = set(env.warnings())
        failure = None
        try:
            await asyncio.wait_for(env.close(), CLOSE_TIMEOUT_S)
        except Exception as error:
            failure = describe_error(error)
            self.close_problems.append(f"closing failed: {failure}")
        self.close_problems += [w for w in env.warnings() if w not in warnings_before]
        self._emit(EnvClosed(env.info, failure))

    async def close(self) -> None:
        """Close what is still open and wait for closes under way: the session's last step."""
        await self.close_env()
        await asyncio.gather(*self.env_closes)
