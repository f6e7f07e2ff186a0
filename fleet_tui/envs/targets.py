"""Which environment to reach: a `Target`, one of four kinds told apart by `kind`
(`envs.factory.make_env` turns one into its adapter).

Session files keep `target.model_dump()`; `load_target` reads those back, including the dumps
of older versions, which had one model with every kind's fields and no `kind`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter


class InstanceTarget(BaseModel):
    """An instance of a Fleet env, provisioned (`env_key`) or attached to (`instance`)."""

    env_key: str | None = None
    """`name[:version]` of a Fleet env to provision."""
    instance: str | None = None
    """Attach to this running Fleet instance instead of provisioning."""
    data_key: str | None = None
    region: str | None = None
    image_type: str | None = None
    ttl_seconds: int | None = None
    heartbeat_seconds: int | None = None
    """Ask the host to stop a provisioned instance when fleet-tui has missed its heartbeats
    (it sends one every half interval): what bounds an instance when fleet-tui is killed
    outright (SIGKILL, power loss) and cannot close it. None: no heartbeats."""
    env_variables: dict[str, str] = Field(default_factory=dict)
    keep: bool = False

    def _what(self) -> str:
        return self.env_key or f"instance {self.instance}"


class FleetTarget(InstanceTarget):
    """An instance on the Fleet cloud or another Fleet-compatible host."""

    kind: Literal["fleet"] = "fleet"
    base_url: str | None = None
    """Another Fleet-compatible host; None: the Fleet cloud."""
    api_key: str | None = Field(default=None, exclude=True, repr=False)

    def describe(self) -> str:
        """A short human label: what the status bar shows before connecting."""
        return f"{self._what()} @ {self.base_url or 'fleet'}"


class LocalTarget(InstanceTarget):
    """An instance on the embedded local Fleet host, started in this process."""

    kind: Literal["local"] = "local"

    def describe(self) -> str:
        return f"{self._what()} @ local"

    def on_host(self, base_url: str, api_key: str) -> FleetTarget:
        """The same instance, on an embedded host already running at `base_url`."""
        return FleetTarget(**self.model_dump(exclude={"kind"}), base_url=base_url, api_key=api_key)


class McpTarget(BaseModel):
    """Plain MCP endpoints, their tools joined into one list."""

    kind: Literal["mcp"] = "mcp"
    urls: list[str] = Field(default_factory=list)
    """HTTP endpoints: streamable HTTP, or SSE when one answers as an SSE endpoint."""
    stdio: list[str] = Field(default_factory=list)
    """Command lines of servers to run, each spoken to over its stdin and stdout."""
    headers: dict[str, str] = Field(default_factory=dict, exclude=True, repr=False)
    """Sent to every HTTP endpoint; secrets like the API key, so never dumped."""

    def describe(self) -> str:
        return "mcp " + ", ".join([*self.urls, *(f"stdio: {line}" for line in self.stdio)])


class OpenEnvTarget(BaseModel):
    """An OpenEnv environment server."""

    kind: Literal["openenv"] = "openenv"
    url: str
    task: tuple[str, int] | None = None
    """(split, index): the task a session resets into, on servers with task routes."""
    reset_options: dict[str, Any] = {}
    """Env keywords every reset of the session passes (`dataset_name`, `start_cell`, ...)."""
    token: str | None = Field(default=None, exclude=True, repr=False)
    """The token the server asks for (`fleet-tui openenv serve` prints it); a secret, so never
    dumped. None: found as `envs.openenv_token.server_token` says, if the server needs one."""

    def describe(self) -> str:
        return f"openenv {self.url}"


Target = Annotated[
    FleetTarget | LocalTarget | McpTarget | OpenEnvTarget, Field(discriminator="kind")
]
TARGET = TypeAdapter(Target)
"""Validates a target's dump (with its `kind`)."""


def target_fields_of(target: Target) -> dict[str, Any]:
    """The target's dump with an MCP target's headers, which `model_dump` leaves out (what
    `target_argv.to_argv` writes as command-line words)."""
    headers = {"headers": dict(target.headers)} if isinstance(target, McpTarget) else {}
    return target.model_dump() | headers


def load_target(dump: dict[str, Any]) -> Target:
    """A target from its dump; ValidationError when it is not one."""
    return TARGET.validate_python(with_kind(dump))


def with_kind(dump: Any) -> Any:
    """A target's dump with its `kind`: an older dump (no `kind`) is turned into today's."""
    if not isinstance(dump, dict) or "kind" in dump:
        return dump
    if dump.get("openenv"):
        return {"kind": "openenv", "url": dump["openenv"], "task": dump.get("openenv_task")}
    if dump.get("mcp") and not (dump.get("env_key") or dump.get("instance")):
        return {"kind": "mcp", "urls": dump["mcp"]}
    kind = "local" if dump.get("local") else "fleet"
    fields = FleetTarget.model_fields if kind == "fleet" else LocalTarget.model_fields
    return {"kind": kind} | {k: v for k, v in dump.items() if k in fields and k != "kind"}
