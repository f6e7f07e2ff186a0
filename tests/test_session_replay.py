"""Record a session on the embedded host, replay it on a fresh instance: matching steps,
diverging steps, images compared by pixels, the verifier at the end; the CLI's exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from fleet_tui.envs.base import Task
from fleet_tui.envs.targets import FleetTarget, McpTarget
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import INLINE_LIMIT
from fleet_tui.session.replay import replay_session
from fleet_tui.tasks.provision import connected
from fleet_tui.tasks.verify import run_verifier
from tests.recorded import call_tool, recorded

API_KEY = "local-test-key"
CLOSE_ISSUE_1 = Task(
    key="close-issue-1",
    env_key="tracker",
    prompt="Close issue 1.",
    verifier_code=(
        "def validate(env, final_answer=None):\n"
        "    rows = env.db('current').query('SELECT status FROM issues WHERE id = 1').rows\n"
        "    return 1.0 if rows[0][0] == 'closed' else 0.0\n"
    ),
)
TIMESTAMPS = ["updated_at", "created_at"]


def target(host, env_key="tracker") -> FleetTarget:
    return FleetTarget(env_key=env_key, base_url=host.base_url, api_key=API_KEY)


async def record(path, host, env_key, calls, task=None):
    """Drive a recorded session like the app does: connect, reset, task, calls, verify."""
    return await record_on(target(host, env_key), path, calls, task)


async def record_on(recorded_target, path, calls, task=None):
    """`record` on any target (reset where the target has episodes)."""
    async with recorded(recorded_target, path) as session:
        if not isinstance(recorded_target, McpTarget):
            await session.reset(None)
        if task:
            session.choose_task(task)
        for tool, arguments in calls:
            await call_tool(session, tool, arguments)
        if task:
            assert session.env is not None
            verdict = await run_verifier(session.env, task, mode="local")
            session.record_verdict(verdict, after=None, headline="", text="", elapsed_s=0.0)
    return load_session(path)


@pytest.fixture(scope="module")
def tracker_session(local_host, tmp_path_factory):
    import asyncio

    path = tmp_path_factory.mktemp("sessions") / "close-issue-1.jsonl"
    calls = [
        ("get_issue", {"issue_id": 1}),
        ("update_issue", {"issue_id": 1, "changes": {"status": "closed"}}),
        ("list_issues", {"status": "closed"}),
    ]
    return asyncio.run(record(path, local_host, "tracker", calls, CLOSE_ISSUE_1))


def test_recording_holds_every_event(tracker_session):
    kinds = [e.event for e in tracker_session.events]
    assert kinds[:4] == ["session", "connect", "reset", "task"]
    assert kinds.count("call") == 3 and kinds.count("result") == 3
    assert kinds[-1] == "verify" and tracker_session.verdicts()[0].verdict.passed
    assert tracker_session.connect().target.env_key == "tracker"
    assert API_KEY not in tracker_session.path.read_text()


async def test_replay_matches_and_passes(tracker_session, local_host):
    async with connected(target(local_host)) as env:

        async def verify(task):
            return await run_verifier(env, task, mode="local")

        report = await replay_session(tracker_session, env, verify=verify, ignore_keys=TIMESTAMPS)
    assert [s.matched for s in report.steps] == [True, True, True], report.steps
    assert report.resets == 1 and report.verdict.passed and report.ok


async def test_replay_names_what_diverged(tracker_session, local_host, tmp_path):
    # The same session, but the recorded close became a different status on replay.
    tampered = tmp_path / "tampered.jsonl"
    text = tracker_session.path.read_text().replace('"status":"closed"', '"status":"done"')
    tampered.write_text(text)
    async with connected(target(local_host)) as env:
        report = await replay_session(load_session(tampered), env, ignore_keys=TIMESTAMPS)
    assert report.diverged and not report.ok
    diverged = [s for s in report.steps if not s.matched]
    assert diverged and diverged[0].tool == "update_issue"
    assert any("differs" in d for d in diverged[0].differences)


async def test_screenshots_compare_by_pixels(local_host, tmp_path):
    calls = [
        ("computer", {"action": "screenshot"}),
        ("computer", {"action": "left_click", "coordinate": [640, 400]}),
        ("computer", {"action": "screenshot"}),
    ]
    session = await record(tmp_path / "todo.jsonl", local_host, "desktop-todo", calls)
    assert any((tmp_path / "todo.images").iterdir())  # screenshots stored beside the session
    assert all(any(b.type == "image" for b in s.result.result.blocks) for s in session.steps())
    async with connected(target(local_host, "desktop-todo")) as env:
        report = await replay_session(session, env)
    assert all(s.matched for s in report.steps), report.steps
    assert report.verdict is None and report.task_key is None


def run_cli(*args, host):
    env = {**os.environ, "FLEET_API_KEY": API_KEY}
    return subprocess.run(
        [sys.executable, "-m", "fleet_tui", "replay", *args, "--base-url", host.base_url],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_cli_replay_exit_codes(tracker_session, local_host, tmp_path):
    ok = run_cli(
        str(tracker_session.path),
        "--verifier-mode",
        "local",
        *[f"--ignore-key={k}" for k in TIMESTAMPS],
        host=local_host,
    )
    assert ok.returncode == 0, ok.stderr
    assert "3/3 steps match" in ok.stdout and "PASS" in ok.stdout

    # No --ignore-key needed: the local env's clock restarts with the recorded reset.
    strict = run_cli(str(tracker_session.path), "--json", "--no-verify", host=local_host)
    assert strict.returncode == 0, strict.stderr
    assert all(step["matched"] for step in json.loads(strict.stdout)["steps"])

    tampered = tmp_path / "tampered.jsonl"
    text = tracker_session.path.read_text().replace('"status":"closed"', '"status":"done"')
    tampered.write_text(text)
    diverged = run_cli(str(tampered), "--json", "--no-verify", host=local_host)
    assert diverged.returncode == 1
    report = json.loads(diverged.stdout)
    assert [s["tool"] for s in report["steps"] if not s["matched"]] == [
        "update_issue",
        "list_issues",
    ]


async def test_a_big_result_is_stored_beside_the_session_and_replays(mcp_beta, tmp_path):
    path = tmp_path / "big.jsonl"
    mcp = McpTarget(urls=[mcp_beta.url])
    async with recorded(mcp, path) as session:
        await call_tool(session, "big", {"kib": 1536})
    assert max(len(line) for line in path.read_text().splitlines()) < INLINE_LIMIT
    session = load_session(path)
    (step,) = session.steps()
    assert [b.type for b in step.result.result.blocks] == ["stored"]
    async with connected(mcp) as env:
        report = await replay_session(session, env)
    assert [s.matched for s in report.steps] == [True], report.steps
