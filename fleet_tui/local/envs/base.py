"""What a bundled env provides to the local host: seed data and its MCP servers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import CodeType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.tools import Tool

    from fleet_tui.local.state import InstanceState

MCP_PATHS = ("mcp", "api/v1/mcp")
"""Where each instance serves MCP, relative to its root URL."""

_definitions: dict[tuple[CodeType, bool | None], Tool] = {}


def tool(function: Callable[..., Any], *, structured_output: bool | None = None) -> Tool:
    """An MCP tool running `function`, one instance's closure over its state. Its definition
    (argument model and JSON schemas, slow to build) depends only on the `def` it comes from,
    so it is built once per `def` and shared by every instance's tool."""
    from mcp.server.mcpserver.tools import Tool

    key = (function.__code__, structured_output)
    definition = _definitions.get(key)
    if definition is None:
        definition = Tool.from_function(function, structured_output=structured_output)
        _definitions[key] = definition
    return definition.model_copy(update={"fn": function})


def mcp_server(name: str, tools: list[Tool]) -> MCPServer:
    """An instance's MCP server offering `tools`, logging only warnings (its default handler
    logs every request to the terminal)."""
    from mcp.server.mcpserver import MCPServer

    return MCPServer(name, log_level="WARNING", tools=tools)


@dataclass(frozen=True)
class DataSet:
    """A named data snapshot: SQL run on top of the env's base seed, per version."""

    description: str
    versions: dict[str, str]
    """version (`v1`...) -> SQL script."""

    @property
    def default_version(self) -> str:
        return list(self.versions)[-1]


@dataclass(frozen=True)
class EnvSpec:
    key: str
    name: str
    description: str
    versions: dict[str, str]
    """version (`v1.2.0`...) -> what changed in it."""
    seed_sql: Callable[[str], str]
    """version -> SQL script that creates and fills the seed database."""
    build_servers: Callable[[InstanceState], dict[str, MCPServer]]
    """The instance's MCP servers, keyed by their path in MCP_PATHS."""
    data_sets: dict[str, DataSet] = field(default_factory=dict)

    @property
    def default_version(self) -> str:
        return list(self.versions)[-1]

    def describe(self) -> dict:
        """The orchestrator's Environment model."""
        return {
            "env_key": self.key,
            "name": self.name,
            "description": self.description,
            "default_version": self.default_version,
            "versions": dict(self.versions),
        }
