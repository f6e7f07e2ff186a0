"""The episode of a plain-action OpenEnv env, on real openenv-core servers: the reset's
observation is kept, refused actions are no steps and carry the server's details, the `/ws`
frames reach the protocol log, and the session refuses what it cannot do before it starts."""

from __future__ import annotations

import pytest

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.envs.traffic import TrafficEntry, listen_to_traffic
from fleet_tui.session.events import ResetEvent
from fleet_tui.session.reader import load_session
from tests.fixtures.episode_envs import QUESTIONS
from tests.recorded import recorded

OPENING_BOARD = [[0, 0, 0], [0, 1, 0], [0, 0, 0]]


async def test_the_reset_on_connect_keeps_the_opponents_move(board_server):
    env = OpenEnvEnv(OpenEnvTarget(url=board_server.base_url), seed=3)
    await env.connect()
    try:
        opening = env.last_reset
        assert opening is not None and opening.seed == 3 and opening.at is not None
        assert opening.result is not None
        assert opening.result.structured["board"] == OPENING_BOARD
        assert "opponent played 1,1" in opening.result.text()
        assert not env.stepped
    finally:
        await env.close()


async def test_a_refused_action_is_no_step_and_says_which_field(board_server):
    env = OpenEnvEnv(OpenEnvTarget(url=board_server.base_url))
    await env.connect()
    try:
        assert [tool.name for tool in await env.list_tools()] == ["step"]
        result = await env.call_tool("step", {"row": 0})
        assert result.rejected and result.is_error and result.error_kind == "validation_error"
        assert "col: Field required (missing)" in result.text()
        assert [error["loc"] for error in result.structured["errors"]] == [["col"]]
        assert not env.stepped
        played = await env.call_tool("step", {"row": 0, "col": 0})
        assert not played.rejected and played.reward == 1.0 and played.done and env.stepped
    finally:
        await env.close()


async def test_the_session_counts_accepted_steps_of_this_episode_only(board_server):
    session = SessionController(OpenEnvTarget(url=board_server.base_url))
    await session.connect()
    try:
        opening = session.episode.opening
        assert opening is not None and opening.tool == "<reset>"
        assert opening.result is not None and opening.result.structured["board"] == OPENING_BOARD
        assert opening.latency_s and opening.latency_s > 0
        assert session.records == [opening]
        refused = session.add_record("step", {"row": 2})
        await session.call(refused)
        assert refused.status == "error" and session.episode.steps == 0
        played = session.add_record("step", {"row": 2, "col": 0})
        await session.call(played)
        assert session.episode.steps == 1 and session.episode.history == [played]
        assert session.episode.total_reward == 1.0 and session.episode.done

        session.start_connecting(reopen=True)
        await session.connect()
        assert session.episode.steps == 0 and session.episode.total_reward == 0.0
        assert not session.episode.done and session.episode.opening is session.records[-1]
    finally:
        await session.close()


async def test_an_asked_reset_opens_the_next_item_with_its_seed(quiz_server):
    session = SessionController(OpenEnvTarget(url=quiz_server.base_url))
    await session.connect()
    try:
        first = session.episode.opening
        assert first is not None and QUESTIONS[0][0] in first.result.text()
        assert isinstance(first.arguments["seed"], int)
        record, outcome = await session.reset(11)
        assert outcome is not None and record.arguments == {"seed": 11}
        assert record.latency_s and record.latency_s > 0
        assert session.episode.opening is record and QUESTIONS[1][0] in record.result.text()
    finally:
        await session.close()


async def test_the_session_file_keeps_the_opening_reset_and_a_refusals_details(
    board_server, tmp_path
):
    target = OpenEnvTarget(url=board_server.base_url)
    path = tmp_path / "session.jsonl"
    async with recorded(target, path) as session:
        await session.call(session.add_record("step", {"col": 1}))
    session_file = load_session(path)
    (reset,) = [e for e in session_file.events if isinstance(e, ResetEvent)]
    assert reset.seed is not None and reset.result.structured["board"] == OPENING_BOARD
    (step,) = session_file.steps()
    assert step.result.result.rejected
    assert step.result.result.structured["errors"][0]["loc"] == ["row"]


async def test_ws_frames_both_ways_reach_the_protocol_log(board_server):
    session = SessionController(OpenEnvTarget(url=board_server.base_url))
    await session.connect()
    try:
        await session.call(session.add_record("step", {"row": 0}))
        frames = [e for e in session.traffic if e.endpoint.endswith("/ws")]
        assert [(e.direction, e.method) for e in frames[:2]] == [
            ("out", "reset"),
            ("in", "observation"),
        ]
        refused = frames[-1]
        assert refused.direction == "in" and refused.kind == "error"
        assert refused.message["data"]["errors"][0]["loc"] == ["col"]
        assert refused.latency_s is not None and refused.size_bytes > 0
    finally:
        await session.close()


async def test_a_task_on_a_server_without_task_routes_stops_before_the_session(board_server):
    seen: list[TrafficEntry] = []
    handlers = ClientHandlers()
    listen_to_traffic(handlers, seen.append)
    env = OpenEnvEnv(OpenEnvTarget(url=board_server.base_url, task=("train", 0)))
    env.listen(handlers)
    with pytest.raises(EnvError) as refused:
        await env.connect()
    await env.close()
    assert refused.value.exit_code == 2
    assert "task train:0" in refused.value.message and "no task routes" in refused.value.message
    assert seen == []


async def test_a_server_without_ws_says_it_serves_only_stateless_http(http_only_server):
    env = OpenEnvEnv(OpenEnvTarget(url=http_only_server.base_url))
    with pytest.raises(EnvError) as refused:
        await env.connect()
    await env.close()
    assert "HTTP 403" in refused.value.message
    assert "no /ws session route" in refused.value.message and "/step" in refused.value.message
