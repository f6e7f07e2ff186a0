"""A session recorded on a plain-action OpenEnv env (its own action type, no MCP tools) replays
on a fresh server with every step matching, and `check --gold` replays a gold session on one:
each action goes out as the env's own action, not wrapped as an MCP tool call."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial

from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from tests.fixtures.episode_envs import make_board_tasks_app, make_episode_app
from tests.fixtures.openenv_servers import REPO_ROOT, serve_in_thread
from tests.recorded import call_tool, recorded

MOVES = [{"row": 0, "col": 1}, {"row": 2, "col": 1}, {"row": 0, "col": 0}]


def fleet_tui(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "fleet_tui", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)


async def record_board_game(url: str, path, task: tuple[str, int] | None = None) -> None:
    """Reset (into `task`, if given) and play `MOVES` (the last takes a corner and wins),
    recording it all."""
    target = OpenEnvTarget(url=url, task=task)
    path.parent.mkdir(parents=True, exist_ok=True)
    async with recorded(target, path, partial(OpenEnvEnv, reset_on_connect=False)) as session:
        await session.reset(7)
        for move in MOVES:
            result = await call_tool(session, "step", move)
            assert not result.rejected, result


async def test_a_plain_action_session_replays_on_a_fresh_server(board_server, tmp_path):
    path = tmp_path / "board.jsonl"
    await record_board_game(board_server.base_url, path)
    fresh = serve_in_thread(make_episode_app("board"))
    try:
        done = fleet_tui("replay", str(path), "--openenv", fresh.base_url)
    finally:
        fresh.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(MOVES)}/{len(MOVES)} steps match" in done.stdout
    assert "Invalid message" not in done.stdout + done.stderr


async def test_check_replays_a_gold_session_on_a_plain_action_env(tmp_path):
    server = serve_in_thread(make_board_tasks_app())
    try:
        gold = tmp_path / "gold"
        await record_board_game(server.base_url, gold / "eval" / "0.jsonl", ("eval", 0))
        done = fleet_tui("check", "--openenv", server.base_url, "--gold", str(gold), "--json")
    finally:
        server.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    reports = {task["key"]: task for task in json.loads(done.stdout)["tasks"]}
    assert reports["eval/0"]["status"] == "pass", reports["eval/0"]
    assert (reports["eval/0"]["gold"]["score"], reports["eval/0"]["replay_divergences"]) == (1, 0)
    assert reports["eval/1"]["notes"] == ["no gold session"]
