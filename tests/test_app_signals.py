"""The app ended from outside, in a real terminal (tmux): SIGTERM, SIGHUP, its window closed, or
an unhandled exception in it. Each time the instance it created is closed on the host (a
`fleet-tui local serve` that outlives the app), the exit code says why the app ended, and the
terminal is back in the mode a shell needs. `--keep` leaves the instance running."""

from __future__ import annotations

import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from fleet_tui.envs.fleet import LOCAL_API_KEY

if TYPE_CHECKING:
    import fleet

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
    pytest.mark.slow,
]

REPO = Path(__file__).resolve().parents[1]
COOKED = "icanon echo"


@dataclass
class Host:
    """`fleet-tui local serve` in a subprocess, and every KEY=VALUE line it printed."""

    process: subprocess.Popen
    variables: dict[str, str]

    @property
    def base_url(self) -> str:
        return self.variables["FLEET_BASE_URL"]

    @cached_property
    def client(self) -> fleet.Fleet:
        import fleet

        api_key = self.variables.get("FLEET_API_KEY", LOCAL_API_KEY)
        return fleet.Fleet(api_key=api_key, base_url=self.base_url, max_retries=0)

    def running(self) -> set[str]:
        """The ids of the instances running on the host, through the fleet-python SDK."""
        return {env.instance_id for env in self.client.instances() if env.status == "running"}

    def environment(self) -> dict[str, str]:
        """The environment for a client of this host: ours without FLEET_*, plus its lines."""
        base = {k: v for k, v in os.environ.items() if not k.startswith("FLEET_")}
        return {**base, **self.variables}


@pytest.fixture(scope="module")
def host() -> Iterator[Host]:
    yield from served()


@pytest.fixture
def own_host() -> Iterator[Host]:
    """A host for one test (which may kill it)."""
    yield from served()


def served() -> Iterator[Host]:
    host = serve()
    yield host
    host.process.terminate()
    host.process.wait(timeout=30)


def serve() -> Host:
    process = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "local", "serve"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={k: v for k, v in os.environ.items() if not k.startswith("FLEET_")},
    )
    try:
        return Host(process, printed_variables(process))
    except BaseException:
        process.kill()
        raise


def printed_variables(process: subprocess.Popen) -> dict[str, str]:
    """The KEY=VALUE lines `local serve` printed before serving: read up to FLEET_BASE_URL, then
    (once the host answers, so it printed them all) whatever else is in the pipe."""
    fd = process.stdout.fileno()
    output = b""
    while b"FLEET_BASE_URL=" not in output or not output.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], 60)
        chunk = os.read(fd, 65536) if ready else b""
        assert chunk, f"local serve printed no FLEET_BASE_URL: {output!r}"
        output += chunk
    variables = parse_lines(output)
    wait_until(lambda: answers(variables["FLEET_BASE_URL"]), "the host to answer")
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        output += chunk
    return parse_lines(output)


def parse_lines(output: bytes) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in output.decode().splitlines() if "=" in line)
    return {key.strip(): value.strip() for key, value in pairs}


def answers(base_url: str) -> bool:
    try:
        httpx.get(f"{base_url}/v1/env/instances", timeout=5)
    except httpx.TransportError:
        return False
    return True


def wait_until(condition, waiting_for: str, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {waiting_for}")


class Terminal:
    """A command in the one pane of a private tmux server, run by `tests.terminal_report`,
    which reports its pid, exit code and the terminal's mode after it into `report`."""

    def __init__(self, report: Path, environment: dict[str, str], *command: str) -> None:
        self.report = report
        self.socket = f"fleet-tui-signals-{uuid.uuid4().hex[:8]}"
        wrapped = [sys.executable, "-m", "tests.terminal_report", str(report), *command]
        self.tmux(
            "-f", "/dev/null", "start-server", ";",
            "set-option", "-g", "remain-on-exit", "on", ";",  # the screen stays readable
            "new-session", "-d", "-s", "app", "-x", "120", "-y", "35", "-c", str(REPO),
            f"exec {shlex.join(wrapped)}",
            env=environment,
        )  # fmt: skip

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        command = ["tmux", "-L", self.socket, *args]
        return subprocess.run(command, capture_output=True, text=True, env=env).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "app")

    @property
    def pid(self) -> int:
        return int(wait_until(lambda: self._read("pid"), "the command's pid"))

    def exit_code(self) -> int:
        return int(wait_until(lambda: self._read("exit-code"), "the command to end"))

    def mode(self) -> str:
        return self._read("terminal-mode")

    @property
    def ended(self) -> bool:
        return bool(self._read("exit-code"))

    def _read(self, name: str) -> str:
        path = self.report / name
        return path.read_text().strip() if path.exists() else ""

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def app_in_terminal(host, tmp_path) -> Iterator:
    """Start `fleet-tui tracker --base-url HOST ARGS...` in a terminal (HOST: `host` unless
    `on` says); returns the terminal once the instance the app created is running, and that
    instance's id."""
    terminals: list[Terminal] = []

    def start(*args: str, module: str = "fleet_tui", on: Host | None = None):
        server = on or host
        before = server.running()
        command = [sys.executable, "-m", module, "tracker", "--base-url", server.base_url]
        terminal = Terminal(tmp_path, server.environment(), *command, "--no-record", *args)
        terminals.append(terminal)
        created = wait_until(lambda: server.running() - before, "the app's instance to run")
        wait_until(lambda: " tools · " in terminal.screen(), "the app to list the tools")
        (instance,) = created
        return terminal, instance

    yield start
    for terminal in terminals:
        if not terminal.ended:
            os.kill(terminal.pid, signal.SIGKILL)
        terminal.close()


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["sigterm", "sighup"]
)
def test_a_signal_closes_the_instance(host, app_in_terminal, sig, code):
    terminal, instance = app_in_terminal()
    os.kill(terminal.pid, sig)

    assert terminal.exit_code() == code, terminal.screen()
    assert instance not in host.running()
    assert terminal.mode() == COOKED


def test_closing_the_window_closes_the_instance(host, app_in_terminal):
    terminal, instance = app_in_terminal()
    terminal.tmux("kill-window", "-t", "app")

    assert terminal.exit_code() == 129
    assert instance not in host.running()
    assert terminal.mode() == "gone"


def test_a_crash_closes_the_instance(host, app_in_terminal):
    terminal, instance = app_in_terminal(module="tests.crashing_app")
    terminal.tmux("send-keys", "-t", "app", "F12")

    assert terminal.exit_code() == 1, terminal.screen()
    assert instance not in host.running()
    assert terminal.mode() == COOKED
    assert "RuntimeError: a bug in the app" in terminal.screen()


def test_keep_leaves_the_instance_running_after_sigterm(host, app_in_terminal):
    terminal, instance = app_in_terminal("--keep")
    os.kill(terminal.pid, signal.SIGTERM)

    try:
        assert terminal.exit_code() == 143
        assert instance in host.running()
        assert f"Attach again with: fleet-tui --instance {instance}" in terminal.screen()
    finally:
        host.client.close(instance)


def test_a_dead_host_is_reported_and_the_app_still_exits(own_host, app_in_terminal):
    terminal, instance = app_in_terminal(on=own_host)
    own_host.process.kill()
    own_host.process.wait(timeout=30)
    os.kill(terminal.pid, signal.SIGTERM)

    assert terminal.exit_code() == 143
    assert f"could not close instance {instance}" in terminal.screen()


def test_a_killed_app_stops_sending_heartbeats_and_the_host_stops_its_instance(
    host, app_in_terminal
):
    terminal, instance = app_in_terminal("--heartbeat", "1")
    os.kill(terminal.pid, signal.SIGKILL)  # nothing can be closed: only the heartbeats stop

    wait_until(lambda: instance not in host.running(), "the host to stop the instance", 30)
    assert instance_record(host, instance)["heartbeat_interval"] == 1


@pytest.mark.parametrize(
    ("args", "interval"), [((), 60), (("--keep",), None)], ids=["default", "keep"]
)
def test_an_instance_the_app_provisions_asks_for_heartbeats_unless_kept(
    host, app_in_terminal, args, interval
):
    _, instance = app_in_terminal(*args)
    try:
        assert instance_record(host, instance)["heartbeat_interval"] == interval
    finally:
        host.client.close(instance)


def instance_record(host: Host, instance: str) -> dict:
    """The host's record of an instance, as its orchestrator API gives it."""
    response = httpx.get(
        f"{host.base_url}/v1/env/instances/{instance}",
        headers={"Authorization": f"Bearer {host.variables['FLEET_API_KEY']}"},
        timeout=10,
    )
    response.raise_for_status()
    return response.json()
