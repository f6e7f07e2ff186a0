"""End to end with a Prime Intellect Verifiers env (tests/envs/vf_arith, a SingleTurnEnv) through
`openenv import`, served by `fleet-tui openenv serve` and driven by fleet-tui's CLI and app.

Served as the generated README says (plain uvicorn), the wrapper fails: every Verifiers
`Environment` of the releases that install beside openenv 0.10.0 (verifiers 0.4.0 needs mcp 2)
registers SIGINT/SIGTERM handlers when it is built, which Python allows only on the main
thread, and the wrapper builds it on a worker thread. The launcher serves the same files with
that made harmless, in its own process only.
"""

from __future__ import annotations

import json
import subprocess
import time

import httpx
import pytest

from fleet_tui.cli import main
from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from tests.app_driver import call, openenv_tasks_app, wait_for, wait_idle
from tests.fixtures.openenv_servers import (
    ENV_SOURCES,
    openenv_import,
    reachable,
    refused_upgrade,
    serve_imported,
    serve_with_launcher,
)

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

SIGNAL_ERROR = "signal only works in main thread of the main interpreter"


@pytest.fixture(scope="module")
def arith_package(openenv_venv, tmp_path_factory):
    return openenv_import(openenv_venv, "vf_arith", "arith", tmp_path_factory.mktemp("gen"))


@pytest.fixture(scope="module")
def arith_server(openenv_venv, arith_package):
    with reachable(serve_with_launcher(openenv_venv, arith_package)) as server:
        yield server


def test_served_plainly_the_wrapper_fails_on_verifiers_signal_handlers(
    openenv_venv, arith_package, capsys
):
    server = serve_imported(openenv_venv, arith_package)
    try:
        assert main(["tasks", "--openenv", server.base_url]) == 2
        assert "HTTP 500" in capsys.readouterr().err
        # The server logs the traceback after it has answered: give it a moment.
        deadline = time.monotonic() + 30
        while SIGNAL_ERROR not in server.log() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert SIGNAL_ERROR in server.log()
    finally:
        server.stop()


def test_the_env_builds_on_the_main_thread_but_not_on_a_worker_thread(openenv_venv):
    probe = (
        "import threading, vf_arith\n"
        "vf_arith.load_environment()\n"
        "print('main thread: built')\n"
        "def build():\n"
        "    try:\n"
        "        vf_arith.load_environment()\n"
        "    except ValueError as error:\n"
        "        print('worker thread:', error)\n"
        "thread = threading.Thread(target=build)\n"
        "thread.start()\n"
        "thread.join()\n"
    )
    done = subprocess.run(
        [str(openenv_venv / "bin" / "python"), "-c", probe],
        cwd=ENV_SOURCES / "vf_arith",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.stdout.splitlines() == ["main thread: built", f"worker thread: {SIGNAL_ERROR}"]


def test_the_launcher_listens_on_loopback(arith_server):
    assert arith_server.base_url.startswith("http://127.0.0.1:")


async def test_a_web_page_cannot_reach_the_env_nor_read_a_tasks_answer(arith_server):
    """Served with the openenv virtualenv's own uvicorn: a cross-site WebSocket, a rebinding
    POST to a task route (its reply would hold the answer) and a request without the token."""
    status, detail = await refused_upgrade(arith_server, origin="https://evil.example")
    assert status == 403 and "Origin header" in detail
    auth = {"Authorization": f"Bearer {arith_server.token}"}
    task = f"{arith_server.base_url}/arith/task"
    body = {"split": "eval", "index": 1}
    rebound = httpx.post(task, json=body, headers={"Host": "evil.example", **auth}, timeout=30)
    assert rebound.status_code == 400 and "42" not in rebound.text
    assert httpx.post(task, json=body, timeout=30).status_code == 401
    assert "42" in httpx.post(task, json=body, headers=auth, timeout=30).text


def test_tasks_lists_splits_and_pages_the_dataset(arith_server, capsys):
    url = arith_server.base_url
    assert main(["tasks", "--openenv", url, "--json"]) == 0
    (environment,) = json.loads(capsys.readouterr().out)["environments"]
    assert environment["name"] == "arith"
    assert [(s["name"], s["num_tasks"]) for s in environment["splits"]] == [
        ("train", 3),
        ("eval", 2),
    ]
    assert main(["tasks", "--openenv", url, "--split", "train", "--start", "1", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert [(task["key"], task["prompt"]) for task in page["tasks"]] == [
        ("train/1", "What is 10 + 5?"),
        ("train/2", "What is 7 + 8?"),
    ]
    assert main(["tasks", "--openenv", url, "--split", "eval", "--index", "1", "--json"]) == 0
    task = json.loads(capsys.readouterr().out)["task"]
    assert (task["question"], task["answer"]) == ("What is 20 + 22?", "42")


def test_call_submit_prints_the_rubrics_reward(arith_server, capsys):
    task = ["--openenv", arith_server.base_url, "--openenv-task", "eval:1"]
    assert main(["call", *task, "submit", "-a", "completion=20 + 22 = 42"]) == 0
    captured = capsys.readouterr()
    assert "task 1 of split 'eval'" in captured.err
    assert "reward: 1.0  done: true" in captured.out
    assert main(["call", *task, "submit", "-a", "completion=41"]) == 0
    assert "reward: 0.0  done: true" in capsys.readouterr().out


async def test_tasks_reset_and_submit_with_a_reward(arith_server):
    env = OpenEnvEnv(OpenEnvTarget(url=arith_server.base_url), reset_on_connect=False)
    await env.connect()
    try:
        assert [split["name"] for split in await env.splits()] == ["train", "eval"]
        assert await env.num_tasks("eval") == 2
        reset = await env.reset(seed=1, split="eval", index=1)
        assert reset.result.text() == "What is 20 + 22?"
        assert [tool.name for tool in await env.list_tools()] == ["submit"]
        result = await env.call_tool("submit", {"completion": "20 + 22 = 42"})
        assert (result.reward, result.done) == (1.0, True)
        assert result.structured["metrics"]["correct_sum"] == 1.0
    finally:
        await env.close()


async def test_app_starts_a_task_and_shows_the_submitted_reward(arith_server):
    """Tasks pane pages the dataset; Start task resets into the row; submit's reward shows."""
    async with openenv_tasks_app(arith_server.base_url, tasks=5) as (pilot, panel):
        assert sorted((t.split, t.index) for t in panel.tasks) == [
            ("eval", 0),
            ("eval", 1),
            ("train", 0),
            ("train", 1),
            ("train", 2),
        ]
        panel.start_task(next(t for t in panel.tasks if (t.split, t.index) == ("eval", 1)))
        await wait_idle(pilot, timeout=120)
        submitted = await call(pilot, "submit", {"completion": "42"})
        assert submitted.status == "ok", submitted.message
        assert (submitted.result.reward, submitted.result.done) == (1.0, True)
        await wait_for(pilot, lambda: len(panel.rewards) == 1)
        assert panel.rewards == [f"#{submitted.number} submit reward 1 · total 1"]
        assert "total 1" in str(pilot.app.screen.query_one("#task-status").content)
