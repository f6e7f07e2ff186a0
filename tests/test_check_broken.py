"""`fleet-tui check` on task files with deliberately broken verifiers: each problem is named
for what it is, in both verifier modes."""

from __future__ import annotations

import json

from tests.test_check import BROKEN, check, running_instances


async def test_broken_verifiers_are_named_local_mode(local_host, fleet_client):
    instances_before = await running_instances(fleet_client)
    result = check(
        "--tasks",
        str(BROKEN),
        "--verifier-mode",
        "local",
        "--timeout",
        "3",
        "--parallel",
        "4",
        "--json",
        host=local_host,
    )
    assert result.returncode == 1
    tasks = {t["key"]: t for t in json.loads(result.stdout)["tasks"]}
    assert {k: t["untouched"]["error_type"] for k, t in tasks.items()} == {
        "broken-syntax": "SyntaxError",
        "broken-exception": "KeyError",
        "broken-infinite-loop": "Timeout",
        "broken-trivially-passes": None,
        "broken-missing-function": "MissingFunction",
    }
    assert tasks["broken-trivially-passes"]["problems"] == [
        "passes without any work (the verifier passes on the untouched env)"
    ]
    assert all(t["status"] == "fail" for t in tasks.values())
    assert await running_instances(fleet_client) <= instances_before


def test_broken_verifiers_remote_mode_and_table(local_host):
    result = check(
        "--tasks",
        str(BROKEN),
        "--task",
        "broken-syntax",
        "--task",
        "broken-exception",
        "--task",
        "broken-trivially-passes",
        "--task",
        "broken-missing-function",
        "--parallel",
        "4",
        host=local_host,
    )
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].split()[:5] == ["TASK", "ENV", "UNTOUCHED", "GOLD", "STATUS"]
    rows = {line.split()[0]: line for line in lines[1:5]}
    assert "SyntaxError" in rows["broken-syntax"] and "FAIL" in rows["broken-syntax"]
    assert "KeyError" in rows["broken-exception"]
    assert "passes without any work" in rows["broken-trivially-passes"]
    assert "MissingFunction" in rows["broken-missing-function"]
    assert "no function here" not in result.stdout  # its module code never ran in this process
    assert lines[-1] == "0/4 tasks pass"
