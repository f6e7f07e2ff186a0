"""`fleet-tui check --local`: one embedded host, started in the process, serves every task."""

from __future__ import annotations

from fleet_tui.local import bundled_task_files
from tests.test_check import GOLD, check


def test_embedded_host_shared_by_parallel_tasks():
    path = bundled_task_files()["tracker"]
    result = check(
        "--tasks",
        str(path),
        "--task",
        "tracker-assign-safari-crash",
        "--task",
        "tracker-close-footer-link",
        "--gold",
        str(GOLD),
        "--parallel",
        "2",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "2/2 tasks pass"
