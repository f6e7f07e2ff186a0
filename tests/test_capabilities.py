"""Optional env features as protocols: each adapter offers its own, and the session recorder's
wrapper claims none of them itself; they are reached through `unwrapped`, and the session
answers for them to the UI."""

from __future__ import annotations

import pytest

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import Env, EnvError
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


async def test_the_session_answers_what_its_env_can_do(mcp_alpha, openenv_server):
    mcp = SessionController(McpTarget(urls=[mcp_alpha.url]))
    assert not mcp.can_list_catalog and mcp.heartbeat_state is None
    await mcp.connect()
    try:
        assert mcp.can_list_catalog and mcp.heartbeat_state is None
        with pytest.raises(EnvError, match=r"^no task routes$"):
            await mcp.server_tasks(10)
    finally:
        await mcp.close_env()
    openenv = SessionController(OpenEnvTarget(url=openenv_server.base_url))
    await openenv.connect()
    try:
        assert not openenv.can_list_catalog
        assert await openenv.server_tasks(10) == []  # task routes, none served here
    finally:
        await openenv.close_env()
