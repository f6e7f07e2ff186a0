"""`make_env`: the adapter for a target. Adapters are imported only when one is made, so
`--help` stays fast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fleet_tui.envs.targets import Target

if TYPE_CHECKING:
    from fleet_tui.envs.base import Env


def make_env(target: Target, **options: Any) -> Env:
    """The adapter for a target, not yet connected."""
    if target.kind == "openenv":
        from fleet_tui.envs.openenv import OpenEnvEnv

        return OpenEnvEnv(target, **options)
    if target.kind == "mcp":
        from fleet_tui.envs.mcp_union import McpEnv

        return McpEnv(target, **options)
    from fleet_tui.envs.fleet import FleetEnv

    return FleetEnv(target, **options)
