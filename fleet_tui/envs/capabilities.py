"""What some environments can do beyond the `Env` protocol, as protocols checked with isinstance.

An adapter offers a capability by having its methods; a caller asks with
`isinstance(env, Reconnectable)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from fleet_tui.envs.base import EnvInfo, Progress, ResetResult, Task

if TYPE_CHECKING:
    import fleet

    from fleet_tui.envs.mcp_catalog import McpCatalog
    from fleet_tui.envs.mcp_client import ClientHandlers


@runtime_checkable
class Reconnectable(Protocol):
    """Can reopen its connections after they dropped, keeping its instance."""

    async def reconnect(self, progress: Progress | None = None) -> None: ...


@runtime_checkable
class HasSqliteResources(Protocol):
    """Has named resources, some of them SQLite databases that read-only SQL can query."""

    async def resources(self) -> list[Any]:
        """Resource objects with `.name` and `.type` ("sqlite", ...)."""
        ...

    async def query(self, resource: str, sql: str, args: list[Any] | None = None) -> Any:
        """A query response with `success`, `columns`, `rows` and `error`."""
        ...


@runtime_checkable
class HasTaskRoutes(Protocol):
    """Serves its tasks by split (the task routes of an imported OpenEnv server)."""

    async def task_environments(self) -> list[str]: ...

    async def splits(self, env: str | None = None) -> list[dict[str, Any]]: ...

    async def num_tasks(self, split: str, env: str | None = None) -> int: ...

    async def task_range(
        self, split: str, start: int = 0, stop: int | None = None, env: str | None = None
    ) -> list[Task]: ...


@runtime_checkable
class ResetsIntoTask(Protocol):
    """Each reset starts the task `task` names (split, index) when it is set."""

    task: tuple[str, int] | None


@runtime_checkable
class Episodic(Protocol):
    """Runs episodes in one session (OpenEnv): keeps the reset that started the current
    episode (made on connect, or asked for) and tells the session's state."""

    last_reset: ResetResult | None
    stepped: bool
    """Whether a step was taken since `last_reset` (else its observation is the current one)."""

    async def state(self) -> dict[str, Any]: ...


@runtime_checkable
class DescribesItself(Protocol):
    """Serves what it is and the schemas of its actions, observations and state (OpenEnv's
    `/metadata` and `/schema`); EnvError from a server that does not."""

    async def metadata(self) -> dict[str, Any]: ...

    async def schema(self) -> dict[str, Any]: ...


@runtime_checkable
class FleetInstance(Protocol):
    """One instance on a Fleet host: its SDK client (`fleet`) once connected, for remote
    verifiers, and its id in `info.instance_id`."""

    info: EnvInfo
    fleet: fleet.AsyncFleet | None


@runtime_checkable
class Heartbeating(Protocol):
    """Keeps its instance alive with heartbeats and says how the latest went."""

    @property
    def heartbeat_state(self) -> str | None:
        """`ok HH:MM:SS` / `failed HH:MM:SS`, `pending` before the first; None when off."""
        ...


@runtime_checkable
class HearsServer(Protocol):
    """Takes the session's `ClientHandlers` before it connects: an env that speaks MCP itself
    passes on what servers send besides replies (notifications, sampling, elicitation, roots)
    and its messages; an OpenEnv session shows its `/ws` frames to `on_message` only."""

    def listen(self, handlers: ClientHandlers) -> None: ...


@runtime_checkable
class SetsLogLevel(Protocol):
    """Can ask its MCP servers for log messages from a level up (logging/setLevel)."""

    async def set_log_level(self, level: str) -> list[str]:
        """One line per server that could not take the level (none: all did)."""
        ...


@runtime_checkable
class TellsRootsChanged(Protocol):
    """Speaks MCP, so it can tell its servers the roots the client offers changed."""

    async def roots_changed(self) -> list[str]:
        """One line per server that could not be told (none: all were)."""
        ...


@runtime_checkable
class ServesCatalog(Protocol):
    """Speaks MCP, so its servers' resources, resource templates and prompts can be listed,
    read and got (`McpCatalog`); raises EnvError while not connected."""

    def catalog(self) -> McpCatalog: ...
