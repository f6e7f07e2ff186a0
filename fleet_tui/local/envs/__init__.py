"""The envs bundled with the local host, by key."""

from __future__ import annotations

from fleet_tui.local.envs import desktop_todo, tracker
from fleet_tui.local.envs.base import MCP_PATHS, DataSet, EnvSpec

ENVS: dict[str, EnvSpec] = {spec.key: spec for spec in (tracker.SPEC, desktop_todo.SPEC)}

__all__ = ["ENVS", "MCP_PATHS", "DataSet", "EnvSpec"]
