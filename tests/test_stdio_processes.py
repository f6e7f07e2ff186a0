"""A stdio server's processes never outlive fleet-tui: a grandchild in the server's process
group, one that called `setsid()` and a daemonized one (double fork) are all killed when the
endpoint closes, when the app quits, and when a headless command ends, gets SIGTERM or SIGHUP,
or is killed outright (SIGKILL, as a crash would)."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import McpTarget
from tests.cli_run import child_env
from tests.processes import gone_soon, running

STDIO_SERVER = Path(__file__).parent / "fixtures" / "stdio_server.py"
FLEET_TUI = [sys.executable, "-m", "fleet_tui"]
HOWS = ["child", "setsid", "daemon"]


def spawning(how: str) -> str:
    return shlex.join([sys.executable, str(STDIO_SERVER), "--spawn", how])


def descendant_in(lines: list[str]) -> int:
    [pid] = [int(line.split()[1]) for line in lines if line.startswith("descendant ")]
    return pid


@pytest.mark.parametrize("how", HOWS)
async def test_closing_the_endpoint_kills_what_the_server_started(how):
    env = make_env(McpTarget(stdio=[spawning(how)]))
    await env.connect()
    (endpoint,) = env.endpoints()
    pid = descendant_in(endpoint.output)
    assert running(pid)

    await env.close()

    assert gone_soon(pid)


async def test_quitting_the_app_kills_what_the_server_started():
    from fleet_tui.ui.app import FleetTuiApp
    from tests.app_driver import SIZE, wait_connected

    app = FleetTuiApp(McpTarget(stdio=[spawning("daemon")]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        pid = descendant_in(app.controller.env.endpoints()[0].output)
        assert running(pid)
        await pilot.press("ctrl+q")

    assert gone_soon(pid)


@pytest.mark.parametrize("how", HOWS)
def test_a_headless_command_leaves_nothing_running(how):
    result = subprocess.run(
        [*FLEET_TUI, "call", "--stdio", spawning(how), "echo", "-a", "text=hi"],
        capture_output=True,
        text=True,
        timeout=120,
        env=child_env(),
    )

    assert result.returncode == 0, result.stderr
    pid = int(re.search(r"descendant (\d+)", result.stderr).group(1))
    assert gone_soon(pid)


@pytest.mark.parametrize(
    "sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=["sigterm", "sighup", "sigkill"]
)
@pytest.mark.parametrize("how", HOWS)
def test_a_signal_to_the_command_leaves_nothing_running(how, sig):
    child = subprocess.Popen(
        [*FLEET_TUI, "call", "--stdio", spawning(how), "wait", "-a", "seconds=60"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=child_env(),
    )
    try:
        assert child.stderr is not None
        pid = server = None
        for line in child.stderr:
            if found := re.search(r"\] descendant (\d+)", line):
                pid = int(found.group(1))
            if found := re.search(r"\] pid (\d+)", line):
                server = int(found.group(1))
            if pid and server:
                break
        assert pid is not None and server is not None and running(pid)
        time.sleep(1.0)  # the call is under way

        child.send_signal(sig)
        child.wait(timeout=60)

        assert gone_soon(server)
        assert gone_soon(pid)
    finally:
        if child.poll() is None:
            child.kill()
