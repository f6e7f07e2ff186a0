"""`make_env`: the adapter for a target. Adapters are imported only when one is made, so
`--help` stays fast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fleet_tui.envs.targets import InstanceTarget, McpTarget, OpenEnvTarget, Target

if TYPE_CHECKING:
    from fleet_tui.envs.base import Env


def make_env(target: Target, **options: Any) -> Env:
    """The adapter for a target, not yet connected."""
    if isinstance(target, OpenEnvTarget):
        from fleet_tui.envs.openenv import OpenEnvEnv

        return OpenEnvEnv(target, **options)
    if isinstance(target, McpTarget):
        from fleet_tui.envs.mcp_union import McpEnv

        return McpEnv(target, **options)
    assert isinstance(target, InstanceTarget)
    from fleet_tui.envs.fleet import FleetEnv

    return FleetEnv(target, **options)
