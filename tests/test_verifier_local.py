"""Local verifier mode: a child process with a timeout, against SQLite files; every kind of
broken verifier is reported as what it is."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from fleet_tui.capped import OUTPUT_LIMIT
from fleet_tui.tasks.local_verify import run_verifier_files, run_verifier_snapshots
from fleet_tui.tasks.snapshot import sqlite_query_fn, take_snapshot
from tests.unruly_verifiers import ESCAPING, FLOOD, flood_cut_to, process_alive, started_pids

BROKEN = Path(__file__).parent / "data" / "tasks" / "broken-verifiers.json"
CLOSED_CHECK = """
def validate(env, final_answer=None):
    status = env.db("current").query("SELECT status FROM issues WHERE id = 1").rows[0][0]
    before = env.db("seed").table("issues").eq("id", 1).first()["status"]
    print(f"issue 1: {before} -> {status}")
    return 1.0 if status == "closed" else 0.0
"""


def broken_code(key: str) -> str:
    tasks = json.loads(BROKEN.read_text())["tasks"]
    return next(t["verifier_func"] for t in tasks if t["key"] == key)


@pytest.fixture(scope="module")
def databases(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("dbs")
    paths = {}
    for name, status in (("seed", "open"), ("current", "closed")):
        paths[name] = folder / f"{name}.db"
        connection = sqlite3.connect(paths[name])
        connection.execute("CREATE TABLE issues (id INTEGER PRIMARY KEY, status TEXT)")
        connection.execute("INSERT INTO issues VALUES (1, ?)", (status,))
        connection.commit()
        connection.close()
    return paths


async def test_passing_verifier_reads_current_and_seed(databases):
    verdict = await run_verifier_files(CLOSED_CHECK, databases, task_key="close-1")
    assert verdict.success and verdict.passed and verdict.score == 1.0
    assert verdict.stdout == "issue 1: open -> closed\n"
    assert verdict.mode == "local" and verdict.task_key == "close-1"
    assert verdict.execution_time_ms > 0


async def test_failing_verifier_scores_zero(databases):
    untouched = {"current": databases["seed"], "seed": databases["seed"]}
    verdict = await run_verifier_files(CLOSED_CHECK, untouched)
    assert verdict.success and not verdict.passed and verdict.score == 0.0


async def test_final_answer_reaches_the_verifier(databases):
    code = "def check(env, final_answer=None):\n    return 1.0 if final_answer == '42' else 0.0\n"
    assert (await run_verifier_files(code, databases, final_answer="42")).passed
    assert not (await run_verifier_files(code, databases, final_answer="41")).passed


async def test_syntax_error(databases):
    verdict = await run_verifier_files(broken_code("broken-syntax"), databases)
    assert not verdict.success and verdict.error_type == "SyntaxError"
    assert "line 1" in verdict.error_message


async def test_exception_with_traceback_and_stdout(databases):
    untouched = {"current": databases["seed"], "seed": databases["seed"]}
    verdict = await run_verifier_files(broken_code("broken-exception"), untouched)
    assert not verdict.success and verdict.error_type == "KeyError"
    assert verdict.error_message == "'open'"
    assert "Traceback" in verdict.traceback and "<verifier>" in verdict.traceback
    assert verdict.stdout == "looking at issue 1\n"


async def test_infinite_loop_times_out(databases):
    verdict = await run_verifier_files(broken_code("broken-infinite-loop"), databases, timeout_s=2)
    assert not verdict.success and verdict.error_type == "Timeout"
    assert "2 s" in verdict.error_message


async def test_missing_function(databases):
    verdict = await run_verifier_files(broken_code("broken-missing-function"), databases)
    assert not verdict.success and verdict.error_type == "MissingFunction"
    assert verdict.stdout == "no function here\n"


async def test_trivially_passing_verifier_passes(databases):
    verdict = await run_verifier_files(broken_code("broken-trivially-passes"), databases)
    assert verdict.passed


async def test_snapshots_are_written_for_the_child(databases):
    snapshots = {
        name: await take_snapshot(name, sqlite_query_fn(path)) for name, path in databases.items()
    }
    verdict = await run_verifier_snapshots(CLOSED_CHECK, snapshots)
    assert verdict.passed, verdict


async def test_a_timeout_kills_every_process_the_verifier_started(databases, tmp_path):
    pid_file = tmp_path / "pids"
    verdict = await run_verifier_files(ESCAPING, databases, final_answer=str(pid_file), timeout_s=3)
    assert verdict.error_type == "Timeout"
    assert verdict.stdout == "started 3\n"  # what it printed before it was stopped
    pids = started_pids(pid_file)
    assert len(pids) == 3
    assert not [pid for pid in pids if process_alive(pid)]


async def test_a_verifier_that_leaves_a_process_behind_is_not_waited_for(databases):
    code = (
        "import subprocess, sys\n\ndef verify(env, final_answer=None):\n"
        "    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)'],\n"
        "                     start_new_session=True)\n"
        "    return 1.0\n"
    )
    verdict = await run_verifier_files(code, databases, timeout_s=30)
    assert verdict.passed, verdict  # before, the run waited for the sleeper's end: a timeout


async def test_a_flood_of_output_is_cut(databases):
    verdict = await run_verifier_files(FLOOD, databases)
    assert verdict.passed
    assert verdict.stdout == flood_cut_to(OUTPUT_LIMIT)
