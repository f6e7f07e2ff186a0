"""`fleet-tui check`: untouched envs fail, gold sessions pass, broken verifiers are named,
tasks run in parallel and leave no instance running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fleet_tui.local import bundled_task_files

DATA = Path(__file__).parent / "data"
GOLD = DATA / "gold"
BROKEN = DATA / "tasks" / "broken-verifiers.json"
API_KEY = "local-test-key"


def check(*args, host=None, timeout=240):
    where = ["--base-url", host.base_url] if host else ["--local"]
    return subprocess.run(
        [sys.executable, "-m", "fleet_tui", "check", *args, *where],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "FLEET_API_KEY": API_KEY},
    )


async def running_instances(fleet_client) -> set[str]:
    return {i.instance_id for i in await fleet_client.instances() if i.status == "running"}


@pytest.fixture
async def instances_before(fleet_client):
    return await running_instances(fleet_client)


async def test_bundled_tasks_with_gold_in_parallel(local_host, fleet_client, instances_before):
    files = [arg for path in bundled_task_files().values() for arg in ("--tasks", str(path))]
    result = check(*files, "--gold", str(GOLD), "--parallel", "4", "--json", host=local_host)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert len(report["tasks"]) == 9
    for task in report["tasks"]:
        assert task["status"] == "pass", task
        assert task["untouched"]["success"] and not task["untouched"]["passed"]
        assert task["gold"]["passed"] and task["replay_steps"] >= 1
    assert "[todo-add-buy-milk] replaying todo-add-buy-milk.jsonl" in result.stderr  # live
    assert await running_instances(fleet_client) <= instances_before


def test_gold_session_that_does_not_solve_the_task(local_host, tmp_path):
    # The gold of another task: replaying it leaves this task unsolved.
    gold = tmp_path / "gold"
    gold.mkdir()
    source = GOLD / "tracker-triage-unassigned-bugs.jsonl"
    (gold / "tracker-assign-safari-crash.jsonl").write_text(source.read_text())
    result = check(
        "--tasks",
        str(bundled_task_files()["tracker"]),
        "--task",
        "tracker-assign-safari-crash",
        "--gold",
        str(gold),
        "--json",
        host=local_host,
    )
    assert result.returncode == 1
    (task,) = json.loads(result.stdout)["tasks"]
    assert task["problems"] == ["gold session does not pass (score 0)"]


def test_usage_errors_exit_2(tmp_path):
    unknown = check("--tasks", str(BROKEN), "--task", "nope")
    assert unknown.returncode == 2 and "no task nope in" in unknown.stderr
    missing = check("--tasks", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "cannot read task file" in missing.stderr
    assert "Traceback" not in unknown.stderr + missing.stderr


def test_a_gold_replay_that_differs_names_the_step(local_host, tmp_path):
    """The table says which step differed and how, not only how many (--json has all)."""
    gold = tmp_path / "gold"
    gold.mkdir()
    source = (GOLD / "tracker-assign-safari-crash.jsonl").read_text()
    changed = source.replace('\\"title\\": \\"Checkout page crashes on Safari', '\\"title\\": \\"X')
    assert changed != source
    (gold / "tracker-assign-safari-crash.jsonl").write_text(changed)
    tasks = ["--tasks", str(bundled_task_files()["tracker"]), "--task"]
    result = check(*tasks, "tracker-assign-safari-crash", "--gold", str(gold), host=local_host)
    assert result.returncode == 0, result.stdout + result.stderr  # the verifier still passes
    assert "1 replayed result differs from the gold: step 5 update_issue: text block 1" in (
        result.stdout
    )
    assert """$.title: '"X"' -> '"Checkout page crashes on Safari"'""" in result.stdout
