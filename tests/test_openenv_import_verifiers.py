"""End to end with a Prime Intellect Verifiers env (tests/envs/vf_arith) through `openenv import`.

It does not work with any Verifiers release that installs beside openenv 0.10.0, and these
tests pin down why:
- verifiers 0.4.0 requires mcp==2.0.0, while openenv 0.10.0 requires fastmcp<4 and so mcp<2:
  pip cannot install both, so the virtualenv holds verifiers 0.3.1;
- every Verifiers `Environment` (0.1.14, 0.2.1 and 0.3.1 alike) registers SIGINT/SIGTERM
  handlers when it is built, which Python allows only on the main thread; the generated
  wrapper builds the env in a worker thread whenever an event loop is running, which is always
  the case in the server. So every route that touches the env (splits, tasks, reset) fails
  with "signal only works in main thread of the main interpreter".
"""

from __future__ import annotations

import subprocess

import pytest

from fleet_tui.cli import main
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from tests.fixtures.openenv_servers import ENV_SOURCES, openenv_import, serve_imported

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

SIGNAL_ERROR = "signal only works in main thread of the main interpreter"


@pytest.fixture(scope="module")
def arith_server(openenv_venv, tmp_path_factory):
    package = openenv_import(openenv_venv, "vf_arith", "arith", tmp_path_factory.mktemp("gen"))
    server = serve_imported(openenv_venv, package)
    yield server
    server.stop()


def test_the_wrapper_fails_because_verifiers_sets_signal_handlers_off_the_main_thread(
    arith_server, capsys
):
    assert main(["tasks", "--openenv", arith_server.base_url]) == 2
    assert "HTTP 500" in capsys.readouterr().err
    assert SIGNAL_ERROR in arith_server.log()


async def test_a_session_reports_the_failure_as_a_failed_reset(arith_server):
    env = OpenEnvEnv(OpenEnvTarget(url=arith_server.base_url), seed=1)
    with pytest.raises(EnvError, match=f"reset failed: {SIGNAL_ERROR}"):
        await env.connect()
    await env.close()


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


@pytest.mark.xfail(
    strict=True, raises=EnvError, reason=f"openenv 0.10.0's Verifiers wrapper: {SIGNAL_ERROR}"
)
async def test_tasks_reset_and_submit_with_a_reward(arith_server):
    env = OpenEnvEnv(OpenEnvTarget(url=arith_server.base_url), reset_on_connect=False)
    await env.connect()
    try:
        assert [split["name"] for split in await env.splits()] == ["train", "eval"]
        assert await env.num_tasks("eval") == 2
        await env.reset(seed=1, split="eval", index=1)
        assert [tool.name for tool in await env.list_tools()] == ["submit"]
        result = await env.call_tool("submit", {"completion": "20 + 22 = 42"})
        assert (result.reward, result.done) == (1.0, True)
    finally:
        await env.close()
