"""Warm sessions: `--keep-warm` leaves a daemon holding the session open; later `call` and
`tools` on the same endpoints from the same directory are forwarded to it over a private Unix
socket and print exactly what they print without it. Against the tests' `alpha` server, with
the daemon as a real background process (its own runtime folder per test)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.cli_run import child_env

TOKEN = "tok-warm-never-on-disk-7731"


def times_hidden(text: str) -> str:
    """Output without what differs between any two runs: the connection's duration
    (`Connected 1/1 MCP endpoints in 0.3s`) and a call's (`"latency_s": 0.0168`)."""
    text = re.sub(r"endpoints in \d+\.\ds", "endpoints in N.Ns", text)
    return re.sub(r'"latency_s": [0-9.e-]+', '"latency_s": N', text)


@pytest.fixture
def warm(tmp_path):
    """Runs `fleet-tui ARGS` with a runtime folder of this test's own (short: a socket's path
    has a bound); stops its daemons."""
    runtime = Path(tempfile.mkdtemp(prefix="ft-warm-", dir="/tmp"))
    work_dir = tmp_path / "work"
    work_dir.mkdir()

    def run(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "fleet_tui", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=work_dir,
            env=child_env({"XDG_RUNTIME_DIR": str(runtime), **(extra or {})}),
        )

    run.folder = runtime / "fleet-tui"  # type: ignore[attr-defined]
    run.cwd = work_dir  # type: ignore[attr-defined]
    run.env = child_env({"XDG_RUNTIME_DIR": str(runtime)})  # type: ignore[attr-defined]
    yield run
    run("warm", "stop")
    shutil.rmtree(runtime, ignore_errors=True)


def wait_for(condition, what: str, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen within {seconds:g}s")


def served(run) -> int:
    """How many commands the one warm daemon has served (waits for it to listen)."""
    listing = wait_for(lambda: run("warm", "list").stdout.strip(), "a warm daemon listening")
    return int(re.search(r"\((\d+) served", listing).group(1))


def sockets(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.sock")) if folder.exists() else []


COMMANDS = [
    ("call", "echo", "-a", "text=hi"),
    ("call", "echo", "-a", "text=hi", "--json"),
    ("call", "add", "-a", "a=2", "-a", "b=3"),
    ("call", "add", "-a", "a=two", "-a", "b=3"),
    ("call", "nosuch"),
    ("tools",),
    ("tools", "--json"),
]


def test_warm_commands_print_exactly_what_cold_ones_print(mcp_alpha, warm):
    def each(command: tuple[str, ...]) -> subprocess.CompletedProcess:
        return warm(command[0], "--mcp", mcp_alpha.url, *command[1:])

    cold = [each(command) for command in COMMANDS]
    assert not sockets(warm.folder), "no daemon is left without --keep-warm"
    warm("call", "--mcp", mcp_alpha.url, "whoami", "--keep-warm", "60")
    before = served(warm)
    again = [each(command) for command in COMMANDS]
    assert served(warm) == before + len(COMMANDS)
    assert [r.returncode for r in again] == [r.returncode for r in cold] == [0, 0, 0, 2, 2, 0, 0]
    for first, second in zip(cold, again, strict=True):
        assert times_hidden(second.stdout) == times_hidden(first.stdout)
        assert times_hidden(second.stderr) == times_hidden(first.stderr)


def test_a_command_asking_the_latest_protocol_is_not_forwarded(mcp_alpha, warm):
    warm("tools", "--mcp", mcp_alpha.url, "--keep-warm", "60")
    before = served(warm)
    latest = warm("call", "--mcp", mcp_alpha.url, "--protocol", "latest", "whoami")
    shortened = warm("call", "--mcp", mcp_alpha.url, "--proto=latest", "whoami")
    handshake = warm("call", "--mcp", mcp_alpha.url, "whoami")

    assert latest.returncode == shortened.returncode == handshake.returncode == 0, latest.stderr
    assert served(warm) == before + 1, "only the handshake call was forwarded"


FORWARDING = {
    "fleet_tui",
    "fleet_tui.cli",
    "fleet_tui.warm",
    "fleet_tui.warm.client",
    "fleet_tui.warm.place",
    "fleet_tui.target_argv",
    "fleet_tui.envs",
    "fleet_tui.envs.errors",
    "fleet_tui.text",
}
"""fleet-tui's modules a forwarded command loads: the flags that name its target, to find the
daemon (target_argv with the errors it raises)."""


def test_a_forwarded_command_loads_only_the_forwarding(mcp_alpha, warm):
    warm("tools", "--mcp", mcp_alpha.url, "--keep-warm", "60")
    served(warm)
    code = (
        "import sys; from fleet_tui.cli import main; code = main(sys.argv[1:]); "
        "print(code, sorted({m.split('.')[0] for m in sys.modules} & {'mcp', 'pydantic'})); "
        "print(*sorted(m for m in sys.modules if m.startswith('fleet_tui')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "call", "--mcp", mcp_alpha.url, "echo", "-a", "text=hi"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=warm.cwd,
        env=warm.env,
    )
    *output, loaded = done.stdout.splitlines()
    assert output == ["hi", "0 []"], done.stderr
    assert set(loaded.split()) <= FORWARDING


def test_the_warm_session_is_private_and_keeps_its_headers_in_memory(mcp_alpha, warm):
    header = ["--header", f"Authorization: Bearer {TOKEN}"]
    warm("call", "--mcp", mcp_alpha.url, *header, "whoami", "--keep-warm", "60")
    before = served(warm)
    folder = warm.folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (socket,) = sockets(folder)
    assert stat.S_IMODE(socket.stat().st_mode) == 0o600
    pid = int(re.search(r'"pid": (\d+)', status_json(warm)).group(1))
    assert TOKEN.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()
    for path in folder.iterdir():
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes()
    other = warm("call", "--mcp", mcp_alpha.url, "--header", "Authorization: Bearer x", "whoami")
    same = warm("call", "--mcp", mcp_alpha.url, *header, "whoami")
    assert other.returncode == same.returncode == 0
    assert served(warm) == before + 1, "only the command with the same headers is served warm"
    assert TOKEN not in same.stdout + same.stderr


def status_json(run) -> str:
    """The daemon's status as it answers it (what `warm list` prints from)."""
    code = (
        "import json, sys; from fleet_tui.warm.start import ask, daemons; "
        "print(json.dumps(ask(daemons()[0], {'status': True})))"
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=run.env, timeout=60
    ).stdout


def test_warm_stop_ends_the_daemon(mcp_alpha, warm):
    warm("tools", "--mcp", mcp_alpha.url, "--keep-warm", "600")
    served(warm)
    assert warm("warm", "stop").stdout == "stopped 1 warm session\n"
    wait_for(lambda: not sockets(warm.folder), "the socket going away")
    assert warm("warm", "list").stdout == ""


def test_an_unused_warm_session_ends_after_its_idle_time(mcp_alpha, warm):
    warm("tools", "--mcp", mcp_alpha.url, "--keep-warm", "2")
    wait_for(lambda: sockets(warm.folder), "the daemon listening")
    wait_for(lambda: not sockets(warm.folder), "the idle daemon ending")


def test_the_environment_variable_opts_in_too(mcp_alpha, warm):
    done = warm("tools", "--mcp", mcp_alpha.url, extra={"FLEET_TUI_KEEP_WARM": "60"})
    assert "the session stays open for 60s" in done.stderr
    assert served(warm) == 0
    assert os.path.exists(sockets(warm.folder)[0])


def start_forwarded(run, *command: str) -> subprocess.Popen[str]:
    """Start `fleet-tui COMMAND` in the background and wait until it has reached its server."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=run.cwd,
        env=run.env,
    )
    assert process.stderr is not None
    stderr = process.stderr
    try:
        wait_for(lambda: "Connected" in stderr.readline(), "the forwarded call starting")
    except BaseException:
        process.kill()
        raise
    return process


def test_ctrl_c_on_a_forwarded_call_stops_it_in_the_daemon_too(mcp_beta, warm):
    warm("tools", "--mcp", mcp_beta.url, "--keep-warm", "60")
    before = served(warm)
    client = start_forwarded(warm, "call", "--mcp", mcp_beta.url, "slow_count", "-a", "seconds=600")
    try:
        time.sleep(0.5)  # the call is on its way to the server
        client.send_signal(signal.SIGINT)
        _, stderr = client.communicate(timeout=60)
    finally:
        client.kill()
    assert client.returncode == 130
    assert stderr.strip().splitlines()[-1] == "fleet-tui: interrupted"
    # The daemon dropped the call (it would hold the session for 600 s): the next one runs.
    assert warm("call", "--mcp", mcp_beta.url, "count").returncode == 0
    assert served(warm) == before + 1


def test_sigterm_on_a_forwarded_call_says_so_exits_143_and_stops_it_in_the_daemon(mcp_beta, warm):
    warm("tools", "--mcp", mcp_beta.url, "--keep-warm", "60")
    before = served(warm)
    client = start_forwarded(warm, "call", "--mcp", mcp_beta.url, "slow_count", "-a", "seconds=600")
    try:
        time.sleep(0.5)  # the call is on its way to the server
        client.send_signal(signal.SIGTERM)
        _, stderr = client.communicate(timeout=60)
    finally:
        client.kill()
    assert client.returncode == 143
    assert stderr.strip().splitlines()[-1] == (
        "fleet-tui: terminated (SIGTERM); the warm session stops the command"
    )
    assert warm("call", "--mcp", mcp_beta.url, "count").returncode == 0
    assert served(warm) == before + 1


def test_a_command_that_comes_while_the_daemon_is_busy_still_runs_on_its_own(mcp_beta, warm):
    warm("tools", "--mcp", mcp_beta.url, "--keep-warm", "60")
    before = served(warm)
    busy = start_forwarded(warm, "call", "--mcp", mcp_beta.url, "slow_count", "-a", "seconds=3")
    try:
        meanwhile = warm("call", "--mcp", mcp_beta.url, "whoami")
        busy.communicate(timeout=60)
    finally:
        busy.kill()
    assert meanwhile.returncode == busy.returncode == 0
    assert "beta" in meanwhile.stdout
    assert served(warm) == before + 1, "the slow call was served warm, the other one cold"
