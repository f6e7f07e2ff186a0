"""Optional env features as protocols: each adapter offers its own, and the session recorder's
wrapper claims none of them itself; they are reached through `unwrapped`."""

from __future__ import annotations

import pytest

from fleet_tui.envs.base import Env
from fleet_tui.envs.capabilities import (
    DescribesItself,
    Episodic,
    FleetInstance,
    HasSqliteResources,
    HasTaskRoutes,
    Heartbeating,
    Reconnectable,
    ResetsIntoTask,
    ServesCatalog,
    SetsLogLevel,
    TellsRootsChanged,
    unwrapped,
)
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import LocalTarget, McpTarget, OpenEnvTarget
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.session.recording_env import RecordingEnv

CAPABILITIES = [
    Reconnectable,
    HasSqliteResources,
    HasTaskRoutes,
    ResetsIntoTask,
    FleetInstance,
    Heartbeating,
    SetsLogLevel,
    ServesCatalog,
    TellsRootsChanged,
    Episodic,
    DescribesItself,
]

OFFERED = {
    "fleet": (
        LocalTarget(env_key="tracker"),
        {
            Reconnectable,
            HasSqliteResources,
            FleetInstance,
            Heartbeating,
            SetsLogLevel,
            ServesCatalog,
            TellsRootsChanged,
        },
    ),
    "mcp": (
        McpTarget(urls=["http://127.0.0.1:9/mcp"]),
        {Reconnectable, SetsLogLevel, ServesCatalog, TellsRootsChanged},
    ),
    "openenv": (
        OpenEnvTarget(url="http://127.0.0.1:9"),
        {Reconnectable, HasTaskRoutes, ResetsIntoTask, Episodic, DescribesItself},
    ),
}


@pytest.mark.parametrize("kind", OFFERED)
async def test_each_adapter_offers_its_capabilities_and_the_recorder_claims_none(kind, tmp_path):
    target, offered = OFFERED[kind]
    env = make_env(target)
    with SessionRecorder(tmp_path / "session.jsonl") as recorder:
        recording = RecordingEnv(env, recorder, target)
        try:
            assert isinstance(recording, Env)
            assert unwrapped(recording) is env
            assert {c for c in CAPABILITIES if isinstance(unwrapped(recording), c)} == offered
            assert not [c.__name__ for c in CAPABILITIES if isinstance(recording, c)]
        finally:
            await recording.close()


def test_no_env_has_no_capabilities():
    assert unwrapped(None) is None
    assert not any(isinstance(unwrapped(None), c) for c in CAPABILITIES)
