"""Optional env features as protocols: each adapter offers its own, a recorded session keeps
them (the recorder hears the session, it wraps no env), and the session answers for them to
the UI."""

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
)
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.mcp_union import McpEnv
from fleet_tui.envs.targets import LocalTarget, McpTarget, OpenEnvTarget
from tests.recorded import recorded

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
async def test_each_adapter_offers_its_capabilities(kind):
    target, offered = OFFERED[kind]
    env = make_env(target)
    try:
        assert isinstance(env, Env)
        assert {c for c in CAPABILITIES if isinstance(env, c)} == offered
    finally:
        await env.close()


async def test_a_recorded_session_keeps_its_envs_capabilities(mcp_alpha, tmp_path):
    target, offered = McpTarget(urls=[mcp_alpha.url]), OFFERED["mcp"][1]
    async with recorded(target, tmp_path / "session.jsonl") as session:
        assert isinstance(session.env, McpEnv)
        assert {c for c in CAPABILITIES if isinstance(session.env, c)} == offered
        assert session.can_list_catalog


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
