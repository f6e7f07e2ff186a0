"""What a bundled env provides to the local host: seed data and its MCP servers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from fleet_tui.local.state import InstanceState

MCP_PATHS = ("mcp", "api/v1/mcp")
"""Where each instance serves MCP, relative to its root URL."""


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
