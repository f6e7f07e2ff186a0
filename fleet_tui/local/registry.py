"""The local host's instances: create, look up, stop (on request, TTL or missed heartbeats)."""

from __future__ import annotations

import contextlib
import logging
import secrets
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from anyio.abc import TaskGroup

from fleet_tui.local.envs import ENVS, EnvSpec
from fleet_tui.local.mcp_mount import McpMount
from fleet_tui.local.state import InstanceState

RUNNING, STOPPED = "running", "stopped"


class HostError(Exception):
    """A request the host refuses; `status` is the HTTP status to answer with."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def iso_time(moment: float | None) -> str | None:
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, UTC).isoformat().replace("+00:00", "Z")


@dataclass
class Instance:
    instance_id: str
    spec: EnvSpec
    version: str
    data_key: str | None
    data_version: str | None
    region: str
    image_type: str | None
    env_variables: dict[str, Any] | None
    ttl_seconds: int | None
    run_id: str | None
    heartbeat_interval: int | None
    state: InstanceState | None
    mcp: McpMount | None
    created_at: float = field(default_factory=time.time)
    updated_at: float = field(default_factory=time.time)
    terminated_at: float | None = None
    last_heartbeat: float | None = None
    status: str = RUNNING
    stop_reason: str | None = None

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    @property
    def live_state(self) -> InstanceState:
        """The state of a running instance (a stopped one has freed it)."""
        if self.state is None:
            raise HostError(404, f"Instance '{self.instance_id}' is {self.status}")
        return self.state

    def expired(self, now: float) -> str | None:
        """Why this instance must stop now, if it must."""
        if self.ttl_seconds is not None and now >= self.created_at + self.ttl_seconds:
            return "ttl expired"
        if self.heartbeat_interval:
            last = self.last_heartbeat or self.created_at
            if now > last + 2 * self.heartbeat_interval:
                return "heartbeat missed"
        return None

    def deadline(self) -> float | None:
        if not self.heartbeat_interval:
            return None
        return (self.last_heartbeat or self.created_at) + self.heartbeat_interval

    def to_json(self, base_url: str) -> dict[str, Any]:
        """The orchestrator's InstanceResponse."""
        root = f"{base_url}/instances/{self.instance_id}/"
        manager = f"{root}api/v1/env"
        return {
            "instance_id": self.instance_id,
            "env_key": self.spec.key,
            "version": self.version,
            "status": self.status,
            "subdomain": self.instance_id,
            "created_at": iso_time(self.created_at),
            "updated_at": iso_time(self.updated_at),
            "terminated_at": iso_time(self.terminated_at),
            "team_id": "local",
            "region": self.region,
            "env_variables": self.env_variables,
            "data_key": self.data_key,
            "data_version": self.data_version,
            "urls": {
                "root": root,
                "app": [root],
                "api": None,
                "health": f"{manager}/health",
                "api_docs": None,
                "manager": {
                    "api": manager,
                    "docs": f"{manager}/docs",
                    "reset": f"{manager}/reset",
                    "diff": f"{manager}/diff",
                    "snapshot": f"{manager}/snapshot",
                    "execute_verifier_function": f"{manager}/execute_verifier_function",
                    "execute_verifier_function_with_upload": (
                        f"{manager}/execute_verifier_function_with_upload"
                    ),
                },
            },
            "health": self.running,
            "run_id": self.run_id,
            "profile_id": "local",
            "heartbeat_interval": self.heartbeat_interval,
            "heartbeat_region": None,
            # Not in Fleet's model (the SDK ignores them); handy when debugging the host.
            "image_type": self.image_type,
            "ttl_seconds": self.ttl_seconds,
            "stop_reason": self.stop_reason,
        }


def _split_version(value: str | None) -> tuple[str | None, str | None]:
    if value and ":" in value:
        key, version = value.split(":", 1)
        return key, version or None
    return value, None


class Registry:
    """Every instance this host made, running or stopped."""

    def __init__(self, state_dir: Path | None = None) -> None:
        self.owns_state_dir = state_dir is None
        self.state_dir = state_dir or Path(tempfile.mkdtemp(prefix="fleet-tui-local-"))
        self.instances: dict[str, Instance] = {}
        self.task_group: TaskGroup | None = None

    async def create(self, request: dict[str, Any]) -> Instance:
        """Provision an instance from an InstanceRequest body."""
        for name in (
            "env_key",
            "env_version",
            "data_key",
            "data_version",
            "region",
            "image_type",
            "run_id",
        ):
            if request.get(name) is not None and not isinstance(request[name], str):
                raise HostError(400, f"{name} must be a string")
        if not request.get("env_key"):
            raise HostError(400, "env_key is required")
        env_key, version = _split_version(request.get("env_key"))
        version = request.get("env_version") or version
        spec = ENVS.get(env_key or "")
        if spec is None:
            raise HostError(400, f"Environment '{env_key}' not found")
        if version and not version.startswith("v") and version[0].isdigit():
            version = f"v{version}"
        version = version or spec.default_version
        if version not in spec.versions:
            raise HostError(400, f"Version '{version}' not found for env '{spec.key}'")
        data_key, data_version = _split_version(request.get("data_key"))
        data_version = request.get("data_version") or data_version
        script = spec.seed_sql(version)
        if data_key:
            data_set = spec.data_sets.get(data_key)
            if data_set is None:
                known = ", ".join(spec.data_sets) or "none"
                raise HostError(400, f"Data key '{data_key}' does not exist (known: {known})")
            data_version = data_version or data_set.default_version
            if data_version not in data_set.versions:
                raise HostError(400, f"Data key '{data_key}' has no version '{data_version}'")
            script += data_set.versions[data_version]
        ttl = _positive(request, "ttl_seconds")
        heartbeat = _positive(request, "heartbeat_interval")
        variables = request.get("env_variables")
        if variables is not None and not isinstance(variables, dict):
            raise HostError(400, "env_variables must be an object")

        state, servers = await anyio.to_thread.run_sync(self._prepare, spec, script)
        mount = McpMount(servers)
        assert self.task_group is not None, "the host is not running"
        await mount.start(self.task_group)
        instance = Instance(
            instance_id=secrets.token_hex(6),
            spec=spec,
            version=version,
            data_key=data_key,
            data_version=data_version,
            region=request.get("region") or "local",
            image_type=request.get("image_type"),
            env_variables=variables,
            ttl_seconds=ttl,
            run_id=request.get("run_id"),
            heartbeat_interval=heartbeat,
            state=state,
            mcp=mount,
        )
        self.instances[instance.instance_id] = instance
        return instance

    def _prepare(self, spec: EnvSpec, script: str) -> tuple[InstanceState, dict]:
        """The new instance's state and MCP servers (slow-ish: run off the event loop)."""
        state = InstanceState.create(self.state_dir, script)
        with _root_logging_untouched():
            return state, spec.build_servers(state)

    def get(self, instance_id: str) -> Instance:
        instance = self.instances.get(instance_id)
        if instance is None:
            raise HostError(404, f"Instance '{instance_id}' not found")
        return instance

    def running(self, instance_id: str) -> Instance:
        instance = self.get(instance_id)
        if not instance.running:
            raise HostError(404, f"Instance '{instance_id}' is {instance.status}")
        return instance

    def mcp_for(self, instance_id: str) -> McpMount | None:
        instance = self.instances.get(instance_id)
        return instance.mcp if instance and instance.running else None

    def stop(self, instance: Instance, reason: str = "deleted") -> Instance:
        """Stop serving the instance and free its state (idempotent)."""
        if instance.running:
            instance.status = STOPPED
            instance.stop_reason = reason
            instance.terminated_at = instance.updated_at = time.time()
            if instance.mcp:
                instance.mcp.stop()
            if instance.state:
                instance.state.free()
            instance.mcp = instance.state = None
        return instance

    def sweep(self) -> list[Instance]:
        """Stop every instance past its TTL or its heartbeat deadline."""
        now = time.time()
        stopped = []
        for instance in list(self.instances.values()):
            reason = instance.running and instance.expired(now)
            if reason:
                stopped.append(self.stop(instance, reason))
        return stopped

    def stop_all(self) -> None:
        for instance in list(self.instances.values()):
            self.stop(instance, "host stopped")

    def remove_files(self) -> None:
        """Delete the state directory (bundles, logs), if this registry made it."""
        if self.owns_state_dir:
            shutil.rmtree(self.state_dir, ignore_errors=True)


@contextlib.contextmanager
def _root_logging_untouched() -> Iterator[None]:
    """MCPServer() calls logging.basicConfig, which would give the root logger a handler
    printing to stderr (over a terminal UI): with a handler already there, it does nothing."""
    root = logging.getLogger()
    guard = logging.NullHandler()
    root.addHandler(guard)
    try:
        yield
    finally:
        root.removeHandler(guard)


def _positive(request: dict[str, Any], name: str) -> int | None:
    value = request.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise HostError(400, f"{name} must be a positive integer")
    return value
