"""Running `python -m fleet_tui` in a subprocess, for the end-to-end CLI tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures.local_host import TEST_API_KEY

TASKS = {
    "tasks": [
        {
            "id": "count-issues",
            "prompt": "Count the issues.",
            "env_id": "tracker",
            "verifier_func": (
                "def verify(env, final_answer=None):\n"
                "    rows = env.db('current').query('select count(*) from issues').rows\n"
                "    print('issues:', rows[0][0])\n"
                "    return 1.0 if str(rows[0][0]) == final_answer else 0.0\n"
            ),
        },
        {
            "key": "explodes",
            "env_key": "tracker",
            "verifier": {"code": "def verify(env, final_answer=None):\n    raise KeyError('x')\n"},
        },
    ]
}


def fleet_tui(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """Run `python -m fleet_tui ARGS` (in `cwd`, default this one) with the test API key;
    never waits more than a minute."""
    return subprocess.run(
        [sys.executable, "-m", "fleet_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(env),
        cwd=cwd,
    )


def run_together(
    *commands: list[str], env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess]:
    """Run several `python -m fleet_tui` commands at once; their results in order."""
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "fleet_tui", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(env),
        )
        for command in commands
    ]
    results = []
    for child in children:
        stdout, stderr = child.communicate(timeout=60)
        results.append(subprocess.CompletedProcess(child.args, child.returncode, stdout, stderr))
    return results


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("FLEET_")}
    return {**base, "FLEET_API_KEY": TEST_API_KEY, **(extra or {})}


def running_ids(local_host) -> set[str]:
    return {i.instance_id for i in local_host.registry.instances.values() if i.running}


def assert_one_line_error(result: subprocess.CompletedProcess, code: int, text: str) -> None:
    assert result.returncode == code, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("fleet-tui: ") and text in last, result.stderr
    assert "Traceback" not in result.stderr
