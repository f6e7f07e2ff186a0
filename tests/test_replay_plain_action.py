"""A session recorded on a plain-action OpenEnv env (its own action type, no MCP tools) replays
on a fresh server with every step matching: each action goes out as the env's own action, not
wrapped as an MCP tool call."""

from __future__ import annotations

import subprocess
import sys

from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.session.recording_env import RecordingEnv
from tests.fixtures.episode_envs import make_episode_app
from tests.fixtures.openenv_servers import REPO_ROOT, serve_in_thread

MOVES = [{"row": 0, "col": 1}, {"row": 2, "col": 1}, {"row": 0, "col": 0}]


async def record_board_game(url: str, path) -> None:
    """Reset and play `MOVES` (the last takes a corner and wins), recording it all."""
    target = OpenEnvTarget(url=url)
    with SessionRecorder(path) as recorder:
        env = RecordingEnv(OpenEnvEnv(target, reset_on_connect=False), recorder, target)
        await env.connect()
        try:
            await env.list_tools()
            await env.reset(7)
            for move in MOVES:
                result = await env.call_tool("step", move)
                assert not result.rejected, result
        finally:
            await env.close()


async def test_a_plain_action_session_replays_on_a_fresh_server(board_server, tmp_path):
    path = tmp_path / "board.jsonl"
    await record_board_game(board_server.base_url, path)
    fresh = serve_in_thread(make_episode_app("board"))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "fleet_tui", "replay", str(path), "--openenv", fresh.base_url],
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            timeout=120,
        )
    finally:
        fresh.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(MOVES)}/{len(MOVES)} steps match" in done.stdout
    assert "Invalid message" not in done.stdout + done.stderr
