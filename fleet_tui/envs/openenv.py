"""OpenEnvEnv: an `Env` for an OpenEnv environment server.

HTTP `/reset` and `/step` build a fresh env per request, so the session runs over the `/ws`
WebSocket: one connection is one session (reset, step, state, close). Tools are listed with the
`list_tools` action (enriched from JSON-RPC `tools/list` where the server offers it) and called
with `call_tool` steps; a server without MCP tools gets one `step` tool that takes its own action
type. Every result carries the step's reward and done flag.

No hidden resets: the env resets once when the session opens (announced with its seed) and
afterwards only when asked; the latest reset, with its observation, stays in `last_reset`. Once
an episode is done, further calls are refused until a reset, unless the caller passes
`after_done=True`. An action the server refuses (a validation error) is no step: its result is
`rejected`, with the server's details. When the socket drops, the env says so plainly:
reconnecting (`reconnect()`) opens a new session and so starts a new episode.

Every frame on the socket, both ways, goes to the protocol log of whoever `listen`s.

A server that asks for a token (`fleet-tui openenv serve`'s) gets it on every request and on the
WebSocket upgrade, as `Authorization: Bearer`: see `openenv_token.py` for where it comes from.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import websockets
from websockets.asyncio.client import ClientConnection

from fleet_tui.envs.base import (
    EndpointState,
    EndpointStatus,
    EnvError,
    EnvInfo,
    Progress,
    ResetResult,
    Task,
    Tool,
    ToolResult,
)
from fleet_tui.envs.call_clock import DEFAULT_CALL_TIMEOUT_S, chosen_limit
from fleet_tui.envs.openenv_http import OpenEnvHttp, detail_of
from fleet_tui.envs.openenv_results import (
    error_of,
    rejected_result,
    tool_result_from_observation,
    tool_result_from_step,
)
from fleet_tui.envs.openenv_token import server_token
from fleet_tui.envs.results import tool_from_mcp
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.envs.traffic import WsFrame

if TYPE_CHECKING:
    from fleet_tui.envs.mcp_client import ClientHandlers

EPISODE_ENDED = "the episode ended; reset to start a new one"
STEP_TOOL = "step"
SOCKET_LOST = (
    "the connection to the OpenEnv server was lost ({reason}); reconnecting starts a new episode"
)


class OpenEnvEnv:
    """A session with one OpenEnv server, plus its stateless HTTP routes (tasks, metadata)."""

    def __init__(
        self,
        target: OpenEnvTarget,
        *,
        reset_on_connect: bool = True,
        seed: int | None = None,
        split: str | None = None,
        index: int | None = None,
        timeout_s: float = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        if (split is None) != (index is None):
            raise EnvError("give both a split and a task index, or neither")
        self.base_url = http_base_url(target.url)
        self.ws_url = ws_url(self.base_url)
        self.info = EnvInfo(kind="openenv", base_url=self.base_url)
        token = server_token(target.token, self.base_url)
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = OpenEnvHttp(self.base_url, token=token)
        self.episode_id: str | None = None
        self.done = False
        self.last_reset: ResetResult | None = None
        """The reset that started the current episode (on connect, or asked for)."""
        self.stepped = False
        """Whether the env took a step since `last_reset`."""
        self._reset_on_connect = reset_on_connect
        self.task: tuple[str, int] | None = (
            (split, index) if split is not None and index is not None else None
        )
        """The task every reset goes into unless told otherwise (the target's task)."""
        if self.task is None and target.task:
            self.task = target.task
        self.reset_options = dict(target.reset_options)
        """Env keywords every reset passes unless told otherwise (the target's)."""
        self._first_seed = seed
        self._timeout_s = timeout_s
        self._socket: ClientConnection | None = None
        self._lock = asyncio.Lock()
        self._tools: list[Tool] | None = None
        self._action_tool: Tool | None = None
        self._status = EndpointStatus(url=self.ws_url, transport="websocket")
        self._warnings: list[str] = []
        self._handlers: ClientHandlers | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    async def connect(self, progress: Progress | None = None) -> None:
        """Open the session; reset once (saying so, with the seed) unless told not to."""
        say = progress or (lambda _line: None)
        names = await self._task_environments_for(self.task)
        self.info.env_key = names[0] if names else None
        say(f"Opening an OpenEnv session at {self.ws_url}…")
        await self._open_socket()
        if self._reset_on_connect:
            say((await self.reset(self._first_seed)).message)

    async def reconnect(self, progress: Progress | None = None) -> None:
        """Open a new session after the old one dropped: this starts a new episode."""
        await self._drop_socket()
        self._status = EndpointStatus(url=self.ws_url, transport="websocket")
        self._first_seed = None
        self._tools = None  # the new session lists them again
        await self.connect(progress)

    async def close(self) -> None:
        """Say goodbye on the socket (ends the server's session) and release everything."""
        socket = self._socket
        if socket is not None:
            goodbye = json.dumps({"type": "close"})
            with contextlib.suppress(websockets.ConnectionClosed):
                await socket.send(goodbye)
                self._tap("out", goodbye)
        await self._drop_socket()
        self._status.state = EndpointState.CLOSED
        await self.http.aclose()

    # -- the Env protocol ---------------------------------------------------------------------

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        """Tools from the `list_tools` action, enriched from JSON-RPC tools/list. A server
        with neither (its own action type, no MCP) gets one tool, `step`, taking its action."""
        if self._tools is not None and not refresh:
            return self._tools
        answer = await self._exchange({"type": "step", "data": {"type": "list_tools"}})
        observation = answer.get("data", {}).get("observation", {})
        listed = observation.get("tools") if answer["type"] == "observation" else None
        from_jsonrpc = await self._tools_via_jsonrpc()
        self._action_tool = None
        if listed is not None:
            tools = [tool_from_mcp(tool, self.ws_url) for tool in _enrich(listed, from_jsonrpc)]
        elif from_jsonrpc:
            tools = [tool_from_mcp(tool, self.ws_url) for tool in from_jsonrpc]
        else:
            self._action_tool = await self._step_tool()
            tools = [self._action_tool]
        self._tools = tools
        self._status.tool_count = len(tools)
        return tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], *, after_done: bool = False
    ) -> ToolResult:
        """One step: a `call_tool` action, or the arguments themselves as the action for the
        `step` tool of a server without MCP tools. Refused once the episode is done, unless
        `after_done`. The tools are listed first if no one has (a replay calls straight away):
        which wrapper an action goes out in depends on them."""
        if self.done and not after_done:
            raise EnvError(EPISODE_ENDED)
        if self._tools is None:
            await self.list_tools()
        as_action = self._action_tool is not None and name == self._action_tool.name
        action = (
            arguments
            if as_action
            else {"type": "call_tool", "tool_name": name, "arguments": arguments}
        )
        started = time.monotonic()
        answer, size = await self._exchange_sized({"type": "step", "data": action})
        latency = time.monotonic() - started
        if answer["type"] != "observation":
            return rejected_result(answer, endpoint=self.ws_url, latency_s=latency)
        convert = tool_result_from_observation if as_action else tool_result_from_step
        result = convert(answer["data"], endpoint=self.ws_url)
        result = result.model_copy(update={"latency_s": latency, "size_bytes": size})
        self.done = bool(result.done)
        self.stepped = True
        return result

    async def reset(
        self,
        seed: int | None = None,
        *,
        split: str | None = None,
        index: int | None = None,
        episode_id: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> ResetResult:
        """Start a new episode in this session; task-aware servers take `split` and `index`
        (default: the session's task, if it has one); `options` are env keywords, added to
        the session's (`reset_options`)."""
        if (split is None) != (index is None):
            raise EnvError("give both a split and a task index, or neither")
        if split is None and self.task is not None:
            split, index = self.task
        seed = random.randrange(2**31) if seed is None else seed
        episode_id = episode_id or uuid.uuid4().hex
        keywords = self.reset_options | (options or {})
        data: dict[str, Any] = keywords | {"seed": seed, "episode_id": episode_id}
        if split is not None:
            data |= {"split": split, "index": index}
        started = time.monotonic()
        answer, size = await self._exchange_sized({"type": "reset", "data": data})
        latency = time.monotonic() - started
        where = f", task {index} of split {split!r}" if split is not None else ""
        if answer["type"] != "observation":
            into = f" into task {index} of split {split!r}" if split is not None else ""
            raise EnvError(f"reset{into} failed: {error_of(answer)[0]}", exit_code=1)
        self.episode_id = episode_id
        self.done = False
        self.stepped = False
        observation = tool_result_from_observation(answer["data"], endpoint=self.ws_url)
        self.last_reset = ResetResult(
            message=f"Reset: new episode {episode_id} ({seed_note(seed, answer['data'])}{where})",
            seed=seed,
            result=observation.model_copy(update={"latency_s": latency, "size_bytes": size}),
            options={k: v for k, v in data.items() if k not in ("seed", "episode_id")},
            latency_s=latency,
            at=time.time(),
        )
        return self.last_reset

    def endpoints(self) -> list[EndpointStatus]:
        return [self._status.model_copy()]

    def listen(self, handlers: ClientHandlers) -> None:
        """Show every frame of the session to `handlers.on_message` (the protocol log)."""
        self._handlers = handlers

    def warnings(self) -> list[str]:
        return list(self._warnings)

    # -- session state and the HTTP routes ----------------------------------------------------

    async def state(self) -> dict[str, Any]:
        """The session's state (episode id, step count, and whatever the env adds)."""
        answer = await self._exchange({"type": "state"})
        if answer["type"] != "state":
            raise EnvError(f"state failed: {error_of(answer)[0]}")
        return answer["data"]

    async def metadata(self) -> dict[str, Any]:
        return await self.http.metadata()

    async def schema(self) -> dict[str, Any]:
        return await self.http.schema()

    async def task_environments(self) -> list[str]:
        return await self.http.task_environments()

    async def splits(self, env: str | None = None) -> list[dict[str, Any]]:
        return await self.http.splits(env)

    async def num_tasks(self, split: str, env: str | None = None) -> int:
        return await self.http.num_tasks(split, env)

    async def task_range(
        self, split: str, start: int = 0, stop: int | None = None, env: str | None = None
    ) -> list[Task]:
        return await self.http.task_range(split, start, stop, env)

    # -- the socket ---------------------------------------------------------------------------

    async def _open_socket(self) -> None:
        try:
            self._socket = await websockets.connect(
                self.ws_url,
                additional_headers=self._headers,
                max_size=None,
                open_timeout=30,
                ping_interval=20,
                ping_timeout=120,
            )
        except (OSError, websockets.WebSocketException, TimeoutError) as error:
            reason = _reason(error) + await self._why_refused(error)
            self._status.state = EndpointState.DOWN
            self._status.error = reason
            raise EnvError(f"cannot open a session at {self.ws_url}: {reason}") from error
        self._status.state = EndpointState.UP
        self._status.error = None

    async def _why_refused(self, error: BaseException) -> str:
        """For an upgrade refused without a word (Starlette's 403 for a path it does not
        serve): what the server's `/openapi.json` says it serves instead, if it serves
        `/step`; else ""."""
        refused = isinstance(error, websockets.InvalidStatus) and not error.response.body
        if not refused or "/step" not in (routes := await self.http.routes()):
            return ""
        return (
            f"; the server has no /ws session route (its /openapi.json lists {', '.join(routes)}):"
            " it serves only stateless HTTP, where each request builds a fresh env, so there is"
            " no episode to drive"
        )

    async def _drop_socket(self) -> None:
        socket, self._socket = self._socket, None
        if socket is not None:
            await socket.close()

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        return (await self._exchange_sized(message))[0]

    async def _exchange_sized(self, message: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """Send one message and wait for its answer, one request at a time on the session.

        A caller that is cancelled stops waiting, but the exchange itself runs to its end, so
        the answer it was owed is not handed to the next request.
        """
        exchange = asyncio.ensure_future(self._exchange_locked(message))
        exchange.add_done_callback(lambda done: done.cancelled() or done.exception())
        return await asyncio.shield(exchange)

    async def _exchange_locked(self, message: dict[str, Any]) -> tuple[dict[str, Any], int]:
        async with self._lock:
            socket = self._socket
            if socket is None:
                raise EnvError(self._status.error or "no session: connect first")
            try:
                sent = json.dumps(message)
                with contextlib.suppress(websockets.ConnectionClosed):
                    # A server that refuses the session says why, then closes: read that first.
                    await socket.send(sent)
                    self._tap("out", sent)
                async with asyncio.timeout(chosen_limit(self._timeout_s)):
                    text = await socket.recv()
            except (websockets.ConnectionClosed, OSError, TimeoutError) as error:
                await self._lose_socket(error)
            if isinstance(text, bytes):
                text = text.decode("utf-8", "replace")
            self._tap("in", text)
            try:
                answer = json.loads(text)
            except ValueError as error:
                raise EnvError(
                    f"the server sent something that is not JSON: {text[:80]!r}"
                ) from error
        if answer.get("type") == "error" and answer.get("data", {}).get("code") in _FATAL_CODES:
            await self._drop_socket()
            self._status.state = EndpointState.DOWN
            self._status.error = f"the server refused the session: {error_of(answer)[0]}"
            raise EnvError(self._status.error)
        return answer, len(text)

    def _tap(self, direction: str, text: str) -> None:
        if self._handlers is not None:
            for handler in self._handlers.on_message:
                handler(self.ws_url, direction, WsFrame(text))

    async def _lose_socket(self, error: BaseException) -> NoReturn:
        message = SOCKET_LOST.format(reason=_reason(error))
        self._status.state = EndpointState.DOWN
        self._status.error = message
        socket, self._socket = self._socket, None
        if socket is not None:
            socket.transport.abort()
        raise EnvError(message) from error

    async def _tools_via_jsonrpc(self) -> list[dict[str, Any]]:
        """tools/list over the session's `mcp` message, else over HTTP `POST /mcp`, else []."""
        rpc = {"jsonrpc": "2.0", "method": "tools/list", "id": 1}
        answer = await self._exchange({"type": "mcp", "data": rpc})
        result = answer.get("data", {}).get("result") if answer["type"] == "mcp" else None
        if isinstance(result, Mapping) and isinstance(result.get("tools"), list):
            return result["tools"]
        return await self.http.tools_via_jsonrpc() or []

    async def _step_tool(self) -> Tool:
        """The `step` tool of a server without MCP tools: its input is the server's action."""
        self._warnings.append("no MCP tools here: the `step` tool sends the env's own action")
        try:
            action_schema = (await self.http.schema()).get("action") or {"type": "object"}
        except EnvError as error:
            self._warnings.append(f"no action schema: {error.message}")
            action_schema = {"type": "object"}
        return Tool(
            name=STEP_TOOL,
            title="Step",
            description=action_schema.get("description") or "Send one action to the env.",
            input_schema=action_schema,
            endpoint=self.ws_url,
        )

    async def _task_environments_for(self, task: tuple[str, int] | None) -> list[str]:
        """The server's task environments. Without a task, routes that cannot be read are a
        warning; with one, the session cannot start (exit 2 when the server has none)."""
        if task is None:
            try:
                return await self.http.task_environments()
            except EnvError as error:
                self._warnings.append(f"task routes unavailable: {error.message}")
                return []
        names = await self.http.task_environments()
        if not names:
            split, index = task
            raise EnvError(
                f"task {split}:{index} cannot be reset into: {self.base_url} has no task routes "
                "(it is not an env made by `openenv import`)",
                exit_code=2,
            )
        return names


# Error codes after which the server closes the socket.
_FATAL_CODES = {"CAPACITY_REACHED", "FACTORY_ERROR"}


def http_routes(target: OpenEnvTarget) -> OpenEnvHttp:
    """The stateless HTTP side of the target's server (task routes, metadata), with its token."""
    base_url = http_base_url(target.url)
    return OpenEnvHttp(base_url, token=server_token(target.token, base_url))


def http_base_url(url: str) -> str:
    """The server's HTTP base URL, from an http(s) or ws(s) URL (a trailing /ws is dropped)."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.hostname:
        raise EnvError(f"an OpenEnv server's URL starts with http(s):// or ws(s)://, not {url!r}")
    try:
        _ = parts.port  # raises ValueError on a bad port
    except ValueError:
        raise EnvError(f"the OpenEnv server's URL has a bad port: {url!r}") from None
    if parts.netloc.endswith(":"):
        raise EnvError(f"the OpenEnv server's URL has no port after the colon: {url!r}")
    path = parts.path.rstrip("/")
    path = path.removesuffix("/ws")
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def ws_url(base_url: str) -> str:
    parts = urlsplit(base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"{parts.path}/ws", "", ""))


def _enrich(listed: list[dict[str, Any]], extra: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add title and output schema from tools/list to the tools of the list_tools action."""
    by_name = {tool.get("name"): tool for tool in extra if isinstance(tool, Mapping)}
    return [{**by_name.get(tool.get("name"), {}), **tool} for tool in listed]


def seed_note(seed: int, data: Mapping[str, Any]) -> str:
    """`seed N` when the reset's observation reports that seed back, else `seed N sent, not
    reported back`: many envs ignore seeds, and saying `seed N` would claim it was used."""
    observation = data.get("observation")
    observation = observation if isinstance(observation, Mapping) else {}
    metadata = observation.get("metadata")
    reported = [
        observation.get("seed"),
        metadata.get("seed") if isinstance(metadata, Mapping) else None,
    ]
    if seed in reported:
        return f"seed {seed}"
    return f"seed {seed} sent, not reported back"


def _reason(error: BaseException) -> str:
    if isinstance(error, websockets.ConnectionClosed):
        return "the server closed the connection" if error.rcvd else "connection dropped"
    if isinstance(error, TimeoutError):
        return "no answer in time"
    if isinstance(error, websockets.InvalidStatus):  # the upgrade refused, as the guard does
        response = error.response
        body = bytes(response.body or b"")
        return f"HTTP {response.status_code}: {detail_of(body, response.reason_phrase)}"
    return str(error) or type(error).__name__
