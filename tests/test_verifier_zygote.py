"""Verifier children are forked by the warm zygote: each still in a session of its own; a killed
zygote is started again; a zygote killed mid-run is a clear error; without fork, children are
spawned as before; the zygote ends with the process that started it."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fleet_tui.tasks import child_launch
from fleet_tui.tasks.child_launch import ZYGOTE
from fleet_tui.tasks.local_verify import run_verifier_files
from tests.unruly_verifiers import process_alive

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads parent pids from /proc"
)

ANCESTRY = """
import os

def verify(env, final_answer=None):
    supervisor = os.getppid()  # the verifier child, which supervises this verifier
    with open(f"/proc/{supervisor}/stat") as stat:
        launcher = int(stat.read().rsplit(")", 1)[1].split()[1])
    print(supervisor, launcher, os.getsid(supervisor))
    return 1.0
"""
"""Prints the verifier child's pid, its parent's pid and its session id."""

SLEEPER = """
import time

def verify(env, final_answer=None):
    print("sleeping", flush=True)
    open(final_answer, "w").close()
    time.sleep(300)
"""
"""Prints "sleeping", makes the file the final answer names, and sleeps."""


@pytest.fixture(scope="module")
def databases(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("dbs")
    paths = {}
    for name in ("seed", "current"):
        paths[name] = folder / f"{name}.db"
        sqlite3.connect(paths[name]).close()
    return paths


async def ancestry(databases: dict[str, Path]) -> tuple[int, int, int]:
    verdict = await run_verifier_files(ANCESTRY, databases)
    assert verdict.passed, verdict
    supervisor, launcher, session = map(int, verdict.stdout.split())
    return supervisor, launcher, session


def kill_zygote() -> int:
    assert ZYGOTE.process is not None
    pid = ZYGOTE.process.pid
    os.kill(pid, signal.SIGKILL)
    ZYGOTE.process.wait()
    return pid


async def test_the_verifier_child_is_forked_by_the_zygote_into_a_session_of_its_own(databases):
    supervisor, launcher, session = await ancestry(databases)
    assert ZYGOTE.process is not None
    assert launcher == ZYGOTE.process.pid != os.getpid()
    assert session == supervisor  # it called setsid(): its group is killed on a timeout
    again = await ancestry(databases)
    assert again[1] == launcher  # one zygote serves every verifier


async def test_a_killed_zygote_is_started_again(databases, caplog):
    await ancestry(databases)
    killed = kill_zygote()
    with caplog.at_level(logging.WARNING, logger=child_launch.__name__):
        _, launcher, _ = await ancestry(databases)
    assert ZYGOTE.process is not None and launcher == ZYGOTE.process.pid != killed
    assert "the verifier zygote exited; starting it again" in caplog.text


async def test_a_zygote_killed_during_a_run_is_a_clear_error(databases, tmp_path):
    await ancestry(databases)
    sleeping = tmp_path / "sleeping"
    run = asyncio.ensure_future(
        run_verifier_files(SLEEPER, databases, final_answer=str(sleeping), timeout_s=120)
    )
    while not sleeping.exists():
        await asyncio.sleep(0.1)
    kill_zygote()
    verdict = await asyncio.wait_for(run, 60)
    assert not verdict.success and verdict.error_type == "VerifierCrashed"
    assert verdict.stdout == "sleeping\n"
    _, launcher, _ = await ancestry(databases)  # and the next run has a new zygote
    assert launcher == ZYGOTE.process.pid


async def test_without_fork_children_are_spawned(databases, monkeypatch, caplog):
    monkeypatch.setattr(ZYGOTE, "failures", 0)  # given back after the test
    monkeypatch.delattr(os, "fork")
    with caplog.at_level(logging.WARNING, logger=child_launch.__name__):
        _, launcher, session = await ancestry(databases)
    assert launcher == os.getpid()  # spawned by this process, as before
    assert session != os.getsid(0)
    assert "verifiers start as fresh processes (slower): no fork here" in caplog.text


def test_the_zygote_ends_with_the_process_that_started_it(databases):
    script = (
        "import asyncio, sys\n"
        "from fleet_tui.tasks.child_launch import ZYGOTE\n"
        "from fleet_tui.tasks.local_verify import run_verifier_files\n"
        "code = 'def verify(env, final_answer=None):\\n    return 1.0\\n'\n"
        f"dbs = {{'seed': {str(databases['seed'])!r}, 'current': {str(databases['current'])!r}}}\n"
        "assert asyncio.run(run_verifier_files(code, dbs)).passed\n"
        "print(ZYGOTE.process.pid)\n"
        "sys.stdout.flush()\n"
        "import os; os._exit(0)  # no clean-up: as if it were killed\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert not process_alive(int(done.stdout))  # it saw its control socket close


async def test_the_switch_turns_the_zygote_off(databases, monkeypatch):
    monkeypatch.setenv(child_launch.SWITCH, "off")
    _, launcher, _ = await ancestry(databases)
    assert launcher == os.getpid()


async def test_a_large_environment_reaches_the_forked_child(databases, monkeypatch):
    # More than a socket buffer holds: the request is written while the child reads it.
    for n in range(3):
        monkeypatch.setenv(f"FLEET_TUI_TEST_PADDING_{n}", "x" * 100_000)
    code = ANCESTRY.replace("return 1.0", "return len(os.environ['FLEET_TUI_TEST_PADDING_2'])")
    verdict = await run_verifier_files(code, databases)
    assert verdict.success and verdict.score == 100_000
    assert ZYGOTE.process is not None
    assert int(verdict.stdout.split()[1]) == ZYGOTE.process.pid
