"""FleetEnv: a Fleet instance (provisioned or attached) driven through fleet-python, with its
MCP endpoints joined by `McpUnion`.

The instance this env creates is closed on `close()` — after an exception or a cancellation
too (a create still in flight is awaited and then closed) — unless the target says `keep`.
An instance it only attached to is never closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.base import (
    EndpointStatus,
    EnvError,
    EnvInfo,
    Progress,
    ResetResult,
    Tool,
    ToolResult,
)
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.mcp_union import DEFAULT_TIMEOUTS, McpUnion, Timeouts, say
from fleet_tui.envs.targets import FleetTarget
from fleet_tui.text import error_message, flat, redact

if TYPE_CHECKING:
    import fleet

    from fleet_tui.envs.mcp_catalog import McpCatalog
    from fleet_tui.envs.targets import LocalTarget
    from fleet_tui.local.runner import LocalHost

LOCAL_API_KEY = "local"
"""Sent to a `--base-url` host when FLEET_API_KEY is not set: it may not need a key, but the SDK
insists on having one (a host that does need one answers 401, and the user is told so)."""
MCP_PATHS = ("mcp", "api/v1/mcp")
"""Each instance's MCP endpoints, relative to `urls.root`."""
PROGRESS_EVERY_S = 2.0
CLOSE_TIMEOUT_S = 30.0
"""How long `close()` waits for a create in flight before giving up on it."""


def causes(error: BaseException) -> list[BaseException]:
    """`error` and the exceptions it was raised from or during, outermost first."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def sdk_error_text(error: BaseException) -> str:
    """What an SDK error says, as one line without secrets: an HTML error page (a plain web
    server where a Fleet host should be) becomes its HTTP status."""
    message = error_message(error) or type(error).__name__
    if message.lstrip()[:1] == "<":
        status = getattr(error, "status_code", None)
        message = f"HTTP {status or 'error'} with a web page, not a Fleet API answer"
    return redact(flat(message))


def fleet_client(
    base_url: str | None, api_key: str | None, *, max_retries: int | None = None
) -> fleet.AsyncFleet:
    """An `AsyncFleet` for a host (None: FLEET_BASE_URL or the cloud); EnvError if it can't be
    set up (no API key for the cloud)."""
    import fleet

    if base_url and not api_key:
        api_key = LOCAL_API_KEY
    options: dict[str, Any] = {"api_key": api_key, "base_url": base_url}
    if max_retries is not None:
        options["max_retries"] = max_retries
    try:
        return fleet.AsyncFleet(**options)
    except ValueError as error:
        raise EnvError(f"cannot set up the Fleet client: {error}") from None


class FleetEnv:
    """An Env on a Fleet (or Fleet-compatible) host. `.fleet` is the `fleet.AsyncFleet` client;
    `.sdk_env` the SDK's `AsyncEnv` once connected (for task and verifier code)."""

    def __init__(
        self,
        target: FleetTarget | LocalTarget,
        *,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        heartbeat_interval: int | None = None,
        max_retries: int | None = None,
        client: fleet.AsyncFleet | None = None,
    ) -> None:
        """`client`: a Fleet client for the target's host shared with other envs (one HTTP
        client and TLS context for many instances); used, not closed."""
        self.target = target
        self.timeouts = timeouts
        self.heartbeat_interval = (
            heartbeat_interval if heartbeat_interval is not None else target.heartbeat_seconds
        )
        self.max_retries = max_retries
        self.info = EnvInfo(
            kind=target.kind,
            env_key=target.env_key,
            instance_id=target.instance,
            base_url=target.base_url if isinstance(target, FleetTarget) else None,
            ttl_seconds=target.ttl_seconds,
            keep=target.keep,
        )
        self.fleet: fleet.AsyncFleet | None = client
        self._owns_client = client is None
        self.sdk_env: fleet.AsyncEnv | None = None
        self.union: McpUnion | None = None
        self.run_id = f"fleet-tui-{uuid.uuid4().hex[:12]}"
        self.local_host: LocalHost | None = None
        self._create: asyncio.Future[fleet.AsyncEnv] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._last_beat: tuple[bool, float] | None = None
        """(succeeded, wall-clock time) of the latest heartbeat."""
        self._warnings: list[str] = []
        self._resources_loaded = False
        self._closed = False
        self.handlers = ClientHandlers()

    def listen(self, handlers: ClientHandlers) -> None:
        """Use `handlers` for what the instance's MCP servers send on their own."""
        self.handlers = handlers
        if self.union is not None:
            self.union.listen(handlers)

    # -- connecting ----------------------------------------------------------------------------

    async def connect(self, progress: Progress | None = None) -> None:
        """Start the local host if asked, provision or attach, then join the MCP endpoints.
        Connecting again only reconnects the endpoints (it never makes a second instance)."""
        if self._closed:
            raise EnvError("this env is closed")
        if self.sdk_env is not None and self.union is not None:
            await self.union.reconnect(progress)
            return
        client = self.fleet = self.fleet or await self._client(progress)
        if self.target.instance:
            self.sdk_env = await self._attach(client, self.target.instance, progress)
        else:
            self.sdk_env = await self._provision(client, progress)
        from fleet_tui.envs.runner_token import share_runner_token

        share_runner_token(self.sdk_env)
        self._describe_instance(self.sdk_env)
        self._start_heartbeat(self.sdk_env)
        root = self.sdk_env.urls.root if self.sdk_env.urls else None
        if not root:
            raise EnvError(f"instance {self.sdk_env.instance_id} reports no URLs (is it running?)")
        api_key = client.client.api_key
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.union = McpUnion(
            [root + path for path in MCP_PATHS],
            headers=headers,
            handlers=self.handlers,
            timeouts=self.timeouts,
        )
        await self.union.connect(progress)
        await self.union.list_tools()

    async def _client(self, progress: Progress | None) -> fleet.AsyncFleet:
        if isinstance(self.target, FleetTarget):
            base_url, api_key = self.target.base_url, self.target.api_key
        else:
            from fleet_tui.local.runner import start_local_host

            say(progress, "Starting the embedded local Fleet host")
            self.local_host = await asyncio.to_thread(start_local_host)
            base_url = self.info.base_url = self.local_host.base_url
            api_key = self.local_host.token
        return fleet_client(base_url, api_key, max_retries=self.max_retries)

    async def _attach(
        self, client: fleet.AsyncFleet, instance_id: str, progress: Progress | None
    ) -> fleet.AsyncEnv:
        say(progress, f"Attaching to instance {instance_id} on {self.where}")
        sdk_env = await self._sdk(client.instance(instance_id), f"attach to {instance_id}")
        if sdk_env.status != "running":
            raise EnvError(f"instance {instance_id} is {sdk_env.status}, not running")
        return sdk_env

    async def _provision(
        self, client: fleet.AsyncFleet, progress: Progress | None
    ) -> fleet.AsyncEnv:
        target = self.target
        say(progress, f"Provisioning {target.env_key} on {self.where}")
        started = time.monotonic()
        self._create = asyncio.ensure_future(
            client.make(
                target.env_key,
                data_key=target.data_key,
                region=target.region,
                env_variables=dict(target.env_variables) or None,
                image_type=target.image_type,
                ttl_seconds=target.ttl_seconds,
                run_id=self.run_id,
                heartbeat_interval=self.heartbeat_interval,
            )
        )
        ticker = asyncio.create_task(self._tick(progress, started))
        try:
            # Shielded: if we are cancelled meanwhile, close() still learns the instance id.
            sdk_env = await self._sdk(asyncio.shield(self._create), f"provision {target.env_key}")
        finally:
            ticker.cancel()
        self.info.created_here = True
        say(
            progress,
            f"Instance {sdk_env.instance_id} running after {time.monotonic() - started:.1f}s",
        )
        return sdk_env

    async def _tick(self, progress: Progress | None, started: float) -> None:
        while True:
            await asyncio.sleep(PROGRESS_EVERY_S)
            say(progress, f"  still provisioning ({time.monotonic() - started:.0f}s)")

    async def _sdk(self, call: Any, doing: str) -> Any:
        """Await an SDK call, turning its errors into one-line EnvErrors."""
        try:
            return await call
        except EnvError:
            raise
        except Exception as error:
            raise EnvError(await self._explain(error, doing)) from None

    async def _explain(self, error: Exception, doing: str) -> str:
        kinds = {cls.__name__ for cause in causes(error) for cls in type(cause).__mro__}
        message = sdk_error_text(error)
        if "FleetEnvironmentNotFoundError" in kinds:
            return f"cannot {doing}: {message}{await self._available_envs()}"
        if "FleetAuthenticationError" in kinds:
            sent_key = isinstance(self.target, FleetTarget) and self.target.api_key
            problem = "rejected the API key" if sent_key else "needs an API key"
            return f"cannot {doing}: {self.where} {problem} (set FLEET_API_KEY)"
        if "ConnectError" in kinds:
            return f"cannot {doing}: {self.where} is unreachable ({message})"
        return f"cannot {doing}: {message}"

    async def _available_envs(self) -> str:
        try:
            if self.fleet is None:
                return ""
            envs = await asyncio.wait_for(self.fleet.list_envs(), 5)
        except Exception:
            return ""
        return f" (available: {', '.join(sorted(env.env_key for env in envs))})"

    def _describe_instance(self, sdk_env: fleet.AsyncEnv) -> None:
        self.info.instance_id = sdk_env.instance_id
        self.info.env_key = sdk_env.env_key
        self.info.version = sdk_env.version
        self.info.region = sdk_env.region

    # -- heartbeats ----------------------------------------------------------------------------

    def _start_heartbeat(self, sdk_env: fleet.AsyncEnv) -> None:
        interval = sdk_env.heartbeat_interval
        if interval:
            self._heartbeat = asyncio.create_task(
                self._beat(sdk_env, max(interval / 2, 0.5)), name="fleet-heartbeat"
            )

    async def _beat(self, sdk_env: fleet.AsyncEnv, every_s: float) -> None:
        """Keep the instance alive; a failed beat is a warning, not a crash."""
        while True:
            await asyncio.sleep(every_s)
            try:
                await sdk_env.heartbeat()
            except Exception as error:
                self._last_beat = (False, time.time())
                warning = f"heartbeat failed: {error}"
                if warning not in self._warnings:
                    self._warnings.append(warning)
            else:
                self._last_beat = (True, time.time())

    @property
    def heartbeat_state(self) -> str | None:
        """`ok HH:MM:SS` / `failed HH:MM:SS` for the latest heartbeat, `pending` before the
        first; None when the instance asks for no heartbeats."""
        if self._heartbeat is None:
            return None
        if self._last_beat is None:
            return "pending"
        succeeded, at = self._last_beat
        return f"{'ok' if succeeded else 'failed'} {time.strftime('%H:%M:%S', time.localtime(at))}"

    # -- the Env protocol ----------------------------------------------------------------------

    @property
    def where(self) -> str:
        if isinstance(self.target, FleetTarget):
            return self.target.base_url or "the Fleet cloud"
        return "the embedded local host"

    def _connected_union(self) -> McpUnion:
        if self.union is None:
            raise EnvError("not connected")
        return self.union

    def catalog(self) -> McpCatalog:
        return self._connected_union().catalog

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        return await self._connected_union().list_tools(refresh)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        return await self._connected_union().call_tool(name, arguments)

    async def set_log_level(self, level: str) -> list[str]:
        return await self._connected_union().set_log_level(level)

    async def roots_changed(self) -> list[str]:
        return await self._connected_union().roots_changed()

    async def reconnect(self, progress: Progress | None = None) -> None:
        await self._connected_union().reconnect(progress)

    async def reset(
        self, seed: int | None = None, *, options: dict[str, Any] | None = None
    ) -> ResetResult:
        """Restore the instance's seed state through the manager API (it takes no keywords)."""
        if options:
            raise EnvError("a Fleet env's reset takes only a seed, no env keywords")
        sdk_env = self._connected_sdk_env()
        response = await self._sdk(sdk_env.reset(seed=seed), "reset")
        return ResetResult(success=response.success, message=response.message, seed=seed)

    async def resources(self) -> list[Any]:
        """The instance's resources (SDK objects with `.name`, `.type`, `.mode`)."""
        resources = await self._sdk(self._connected_sdk_env().resources(), "list resources")
        self._resources_loaded = True
        return resources

    async def query(self, resource: str, sql: str, args: list[Any] | None = None) -> Any:
        """Run a read-only SQL query on a SQLite resource; the SDK's QueryResponse
        (`success`, `columns`, `rows`, `error`)."""
        sdk_env = self._connected_sdk_env()
        if not self._resources_loaded:  # the SDK's db() needs one resources() call first
            await self.resources()
        return await self._sdk(sdk_env.db(resource).query(sql, args), f"query {resource}")

    def _connected_sdk_env(self) -> fleet.AsyncEnv:
        if self.sdk_env is None:
            raise EnvError("not connected")
        return self.sdk_env

    def endpoints(self) -> list[EndpointStatus]:
        return self.union.endpoints() if self.union else []

    def warnings(self) -> list[str]:
        return (self.union.warnings() if self.union else []) + self._warnings

    async def close(self) -> None:
        """Close MCP connections, then the instance if we created it (and not `keep`), then
        the local host. Idempotent; safe after a failed or cancelled connect."""
        if self._closed:
            return
        self._closed = True
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(BaseException):
                await self._heartbeat
        if self.union is not None:
            await self.union.close()
        created = await self._created_instance()
        if created is not None and not self.target.keep:
            try:
                await asyncio.wait_for(created.close(), CLOSE_TIMEOUT_S)
            except Exception as error:
                self._warnings.append(
                    f"could not close instance {created.instance_id}: {error or 'timed out'}"
                )
        if self.fleet is not None and self._owns_client:
            with contextlib.suppress(Exception):
                await self.fleet.client.httpx_client.aclose()
        if self.local_host is not None:
            await asyncio.to_thread(self.local_host.stop)

    async def _created_instance(self) -> fleet.AsyncEnv | None:
        """The instance our create made, waiting (bounded) for a create still in flight."""
        if self._create is None:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(self._create), CLOSE_TIMEOUT_S)
        except Exception:
            if not self._create.done():
                self._create.cancel()
                with contextlib.suppress(Exception):
                    if self.fleet is not None:  # it made the create, so it is set
                        await self.fleet.close_all(run_id=self.run_id)
            return None
