"""OpenEnvEnv against a real openenv-core server (ShowcaseEnv, served with create_app + uvicorn)."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from PIL import Image

from fleet_tui.cli import main
from fleet_tui.envs.base import EndpointState, EnvError
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.openenv import OpenEnvEnv, http_base_url, ws_url
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.target_argv import parse_openenv_task

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def env(openenv_server):
    env = OpenEnvEnv(OpenEnvTarget(url=openenv_server.base_url), seed=7)
    lines: list[str] = []
    await env.connect(lines.append)
    env.progress_lines = lines
    yield env
    await env.close()


async def test_make_env_picks_openenv_for_an_openenv_target(openenv_server):
    env = make_env(OpenEnvTarget(url=openenv_server.base_url))
    assert isinstance(env, OpenEnvEnv)
    assert env.info.kind == "openenv"


async def test_connect_resets_once_and_says_so_with_the_seed(env):
    assert any("seed 7" in line for line in env.progress_lines)
    state = await env.state()
    assert state["seed"] == 7
    assert state["episode_id"] == env.episode_id
    assert state["step_count"] == 0


async def test_list_tools_has_schemas_and_titles(env):
    tools = {tool.name: tool for tool in await env.list_tools()}
    assert set(tools) == {"echo", "inventory", "snapshot", "explode", "pause", "finish"}
    assert tools["echo"].input_schema["required"] == ["text"]
    assert tools["snapshot"].input_schema["properties"]["width"]["default"] == 8
    assert tools["echo"].title == "Echo"  # from JSON-RPC tools/list
    assert tools["echo"].endpoint.endswith("/ws")
    assert env.endpoints()[0].tool_count == 6


async def test_call_returns_text_with_reward_and_done(env):
    result = await env.call_tool("echo", {"text": "hello [red]there[/]"})
    assert not result.is_error
    assert result.text() == "hello [red]there[/]"
    assert result.done is False
    assert result.reward is None
    assert result.size_bytes > 0


async def test_call_returns_json_as_structured_content(env):
    result = await env.call_tool("inventory", {})
    assert result.structured == {"apples": 3, "pears": [1, 2], "note": "[bold]not markup[/]"}
    assert result.blocks[0].parsed_json()["apples"] == 3


async def test_call_returns_a_png_image(env):
    result = await env.call_tool("snapshot", {"width": 5, "height": 4})
    (image,) = result.images()
    assert image.mime_type == "image/png"
    decoded = Image.open(io.BytesIO(image.data))
    assert decoded.size == (5, 4)
    assert decoded.convert("RGB").getpixel((0, 0)) == (255, 0, 0)


async def test_a_raising_tool_is_an_error_result_naming_its_kind(env):
    result = await env.call_tool("explode", {})
    assert result.is_error
    assert result.error_kind == "execution_error"
    assert "the tool blew up" in result.text()


async def test_bad_arguments_and_unknown_tools_are_error_results(env):
    missing = await env.call_tool("echo", {})
    assert missing.is_error and missing.error_kind == "invalid_args"
    unknown = await env.call_tool("nope", {})
    assert unknown.is_error and unknown.error_kind == "tool_not_found"


async def test_a_cancelled_call_does_not_hand_its_answer_to_the_next_one(env):
    slow = asyncio.create_task(env.call_tool("pause", {"seconds": 0.5}))
    await asyncio.sleep(0.1)
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    assert (await env.call_tool("echo", {"text": "after"})).text() == "after"
    assert (await env.state())["step_count"] == 2


async def test_steps_count_in_the_session_state(env):
    await env.call_tool("echo", {"text": "a"})
    await env.call_tool("echo", {"text": "b"})
    assert (await env.state())["step_count"] == 2


async def test_done_episode_refuses_calls_until_reset(env):
    result = await env.call_tool("finish", {"answer": "42"})
    assert (result.reward, result.done) == (1.0, True)
    with pytest.raises(EnvError, match="the episode ended; reset to start a new one"):
        await env.call_tool("echo", {"text": "too late"})
    forced = await env.call_tool("echo", {"text": "forced"}, after_done=True)
    assert forced.text() == "forced"
    reset = await env.reset(seed=11)
    assert reset.seed == 11 and "seed 11" in reset.message
    assert (await env.call_tool("echo", {"text": "again"})).text() == "again"
    assert (await env.state())["seed"] == 11


async def test_reset_with_a_seed_starts_a_fresh_episode(env):
    await env.call_tool("echo", {"text": "a"})
    first_episode = env.episode_id
    reset = await env.reset(seed=3)
    state = await env.state()
    assert state == {"episode_id": env.episode_id, "step_count": 0, "seed": 3}
    assert env.episode_id != first_episode
    assert reset.result is not None and reset.result.done is False


async def test_no_session_opened_without_reset_when_asked(openenv_server):
    env = OpenEnvEnv(OpenEnvTarget(url=openenv_server.base_url), reset_on_connect=False)
    lines: list[str] = []
    await env.connect(lines.append)
    try:
        assert not any("Reset" in line for line in lines)
        assert (await env.state())["episode_id"] is None
    finally:
        await env.close()


async def test_metadata_and_schema(env):
    metadata = await env.metadata()
    assert metadata["name"] == "ShowcaseEnv"
    schema = await env.schema()
    assert {"action", "observation", "state"} <= set(schema)


async def test_servers_without_task_routes_have_no_tasks_and_no_error(env):
    assert await env.task_environments() == []
    assert await env.splits() == []
    assert env.info.env_key is None
    with pytest.raises(EnvError, match="no task routes"):
        await env.num_tasks("train")


async def test_unreachable_server_is_a_clear_error():
    env = OpenEnvEnv(OpenEnvTarget(url="http://127.0.0.1:9"))
    with pytest.raises(EnvError, match=r"cannot open a session at ws://127\.0\.0\.1:9/ws"):
        await env.connect()
    assert env.endpoints()[0].state == EndpointState.DOWN
    await env.close()


async def test_server_dying_mid_session_says_reconnecting_starts_a_new_episode(
    dying_openenv_server,
):
    env = OpenEnvEnv(OpenEnvTarget(url=dying_openenv_server.base_url), seed=5)
    await env.connect()
    kept = await env.call_tool("echo", {"text": "before the crash"})
    dying_openenv_server.kill()
    with pytest.raises(EnvError, match="reconnecting starts a new episode"):
        await env.call_tool("echo", {"text": "after the crash"})
    status = env.endpoints()[0]
    assert status.state == EndpointState.DOWN
    assert "reconnecting starts a new episode" in status.error
    with pytest.raises(EnvError, match="reconnecting starts a new episode"):
        await env.list_tools(refresh=True)
    assert kept.text() == "before the crash"  # what was shown stays
    with pytest.raises(EnvError, match="cannot open a session"):
        await env.reconnect()
    await env.close()


async def test_reconnect_opens_a_new_episode(openenv_server):
    env = OpenEnvEnv(OpenEnvTarget(url=openenv_server.base_url), seed=1)
    await env.connect()
    old_episode = env.episode_id
    lines: list[str] = []
    await env.reconnect(lines.append)
    try:
        assert env.episode_id != old_episode
        assert any(line.startswith("Reset: new episode") for line in lines)
        assert env.endpoints()[0].state == EndpointState.UP
    finally:
        await env.close()


def test_urls_are_normalised():
    assert http_base_url("ws://h:1/ws") == "http://h:1"
    assert http_base_url("https://h/prefix/") == "https://h/prefix"
    assert http_base_url("h:8000") == "http://h:8000"
    assert ws_url("https://h/prefix") == "wss://h/prefix/ws"
    for bad in ("ftp://h", "http://", "http://h:", "http://h:99999", "http://h:x"):
        with pytest.raises(EnvError):
            http_base_url(bad)


# -- headless commands against a server without task routes ------------------------------------


def test_tasks_command_without_task_routes_is_empty_not_an_error(openenv_server, capsys):
    assert main(["tasks", "--openenv", openenv_server.base_url]) == 0
    assert "has no task routes" in capsys.readouterr().out
    assert main(["tasks", "--openenv", openenv_server.base_url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"environments": []}
    assert main(["tasks", "--openenv", openenv_server.base_url, "--split", "train"]) == 2
    assert "has no task routes" in capsys.readouterr().err


def test_tasks_and_state_need_an_openenv_target(capsys):
    assert main(["tasks", "--mcp", "http://127.0.0.1:9/mcp"]) == 2
    assert "give --openenv URL" in capsys.readouterr().err
    assert main(["state", "--mcp", "http://127.0.0.1:9/mcp"]) == 2
    assert "give --openenv URL" in capsys.readouterr().err


def test_state_command_shows_the_state_after_the_sessions_one_reset(openenv_server, capsys):
    assert main(["state", "--openenv", openenv_server.base_url, "--seed", "9"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("Reset: new episode") == 1
    assert "action (CallToolAction): metadata, type, tool_name, arguments" in captured.out
    assert '"episode_id": null' not in captured.out and '"seed": 9' in captured.out


def test_call_command_resets_once_then_calls_and_prints_reward_and_done(openenv_server, capsys):
    url = openenv_server.base_url
    assert main(["call", "--openenv", url, "finish", "--args", '{"answer": "42"}']) == 0
    captured = capsys.readouterr()
    assert captured.err.count("Reset: new episode") == 1
    assert "final answer 42" in captured.out
    assert "reward: 1.0  done: true (the episode ended; reset to start a new one)" in captured.out
    assert main(["call", "--openenv", url, "explode"]) == 1
    captured = capsys.readouterr()
    assert "the tool blew up" in captured.out


def test_reset_command_prints_the_seed(openenv_server, capsys):
    assert main(["reset", "--openenv", openenv_server.base_url, "--seed", "12", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 12


def test_openenv_task_option_is_checked(capsys):
    assert main(["tools", "--openenv", "http://127.0.0.1:9", "--openenv-task", "train"]) == 2
    assert "--openenv-task expects SPLIT:INDEX, got 'train'" in capsys.readouterr().err
    assert main(["tools", "--mcp", "http://127.0.0.1:9/mcp", "--openenv-task", "a:1"]) == 2
    assert "add --openenv URL" in capsys.readouterr().err
    assert parse_openenv_task("my:split:3") == ("my:split", 3)


async def test_a_server_without_mcp_tools_gets_a_step_tool_taking_its_action(
    counter_openenv_server,
):
    env = OpenEnvEnv(OpenEnvTarget(url=counter_openenv_server.base_url), seed=1)
    await env.connect()
    try:
        (tool,) = await env.list_tools()
        assert tool.name == "step"
        assert tool.input_schema["required"] == ["delta"]
        assert any("`step` tool" in warning for warning in env.warnings())
        result = await env.call_tool("step", {"delta": 4})
        assert result.structured["value"] == 4
        assert (result.reward, result.done) == (0.4, False)
        invalid = await env.call_tool("step", {"delta": "many"})
        assert invalid.is_error and invalid.error_kind == "validation_error"
        final = await env.call_tool("step", {"delta": 6})
        assert (final.reward, final.done) == (1.0, True)
        with pytest.raises(EnvError, match="the episode ended"):
            await env.call_tool("step", {"delta": 1})
    finally:
        await env.close()
