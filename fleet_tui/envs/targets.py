"""Which environment to reach: a `Target` (`envs.factory.make_env` turns it into an adapter)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Target(BaseModel):
    """Where the environment is and how to provision it."""

    env_key: str | None = None
    """`name[:version]` of a Fleet env to provision."""
    instance: str | None = None
    """Attach to this running Fleet instance instead of provisioning."""
    local: bool = False
    """Use the embedded local Fleet host (started in this process)."""
    base_url: str | None = None
    """Another Fleet-compatible host."""
    mcp: list[str] = Field(default_factory=list)
    """Plain MCP streamable-HTTP endpoints."""
    openenv: str | None = None
    """An OpenEnv environment server."""
    openenv_task: tuple[str, int] | None = None
    """(split, index): the task an OpenEnv session resets into, on servers with task routes."""
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
    api_key: str | None = Field(default=None, exclude=True, repr=False)

    @property
    def kind(self) -> str:
        if self.openenv:
            return "openenv"
        if self.mcp and not (self.env_key or self.instance):
            return "mcp"
        return "local" if self.local else "fleet"

    def describe(self) -> str:
        """A short human label: what the status bar shows before connecting."""
        if self.openenv:
            return f"openenv {self.openenv}"
        if self.kind == "mcp":
            return "mcp " + ", ".join(self.mcp)
        what = self.env_key or f"instance {self.instance}"
        where = "local" if self.local else (self.base_url or "fleet")
        return f"{what} @ {where}"
