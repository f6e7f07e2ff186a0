"""`fleet-tui local serve`: prints FLEET_BASE_URL and FLEET_API_KEY, serves the SDK, stops
cleanly on signals."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from subprocess import Popen

import fleet
import httpx
import pytest

from tests.cli_run import TASKS, assert_one_line_error, child_env, fleet_tui


@contextlib.contextmanager
def serving(*extra: str, env: dict[str, str] | None = None) -> Iterator[tuple[Popen, str, str]]:
    """`fleet-tui local serve EXTRA`: the process, its base URL and the token it printed;
    stopped at the end if it still runs."""
    process = Popen(
        [sys.executable, "-m", "fleet_tui", "local", "serve", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        base_url = printed(process, "FLEET_BASE_URL=")
        assert base_url.startswith("http://127.0.0.1:"), base_url
        yield process, base_url, printed(process, "FLEET_API_KEY=")
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=20)


def printed(process: Popen, name: str) -> str:
    """The value on the process's next stdout line, which must start with `name` (a missing
    line fails the test instead of hanging it)."""
    reader = ThreadPoolExecutor(1)
    try:
        line = reader.submit(process.stdout.readline).result(timeout=60).strip()
    finally:
        reader.shutdown(wait=False)
    assert line.startswith(name), line
    return line.removeprefix(name)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_serve_answers_and_stops_cleanly(stop):
    with serving() as (process, base_url, token):
        auth = {"Authorization": f"Bearer {token}"}
        created = httpx.post(
            f"{base_url}/v1/env/instances", json={"env_key": "tracker"}, headers=auth
        )
        assert created.status_code == 200 and created.json()["status"] == "running"
        health = httpx.get(created.json()["urls"]["health"], headers=auth)
        assert health.json()["status"] == "healthy"
        process.send_signal(stop)
        assert process.wait(timeout=20) == 0
        assert "local host stopped" in process.stderr.read()


def test_busy_port_is_a_one_line_error():
    with serving() as (_, base_url, _):
        port = base_url.rsplit(":", 1)[1]
        clash = subprocess.run(
            [sys.executable, "-m", "fleet_tui", "local", "serve", "--port", port],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert clash.returncode == 2
        assert clash.stderr.strip().startswith(f"fleet-tui: cannot listen on 127.0.0.1:{port}")
        assert "Traceback" not in clash.stderr


@pytest.fixture
def served() -> Iterator[tuple[str, str]]:
    """A `fleet-tui local serve` process: (base URL, the token it printed)."""
    with serving() as (_, base_url, token):
        yield base_url, token


def test_the_sdk_and_commands_reach_serve_with_the_printed_token(served, tmp_path):
    base_url, token = served
    client = fleet.Fleet(api_key=token, base_url=base_url)
    env = client.make("tracker")
    try:
        env.instance.load()
        assert env.db().query("SELECT count(*) FROM users").rows == [[4]]
    finally:
        env.close()
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(TASKS))
    with_key = {"FLEET_API_KEY": token}
    tools = fleet_tui("tools", "tracker", "--base-url", base_url, env=with_key)
    assert tools.returncode == 0 and "create_issue" in tools.stdout, tools.stderr
    verify = ["verify", "--base-url", base_url, "--tasks", str(tasks), "--task", "count-issues"]
    passed = fleet_tui(*verify, "--final-answer", "8", env=with_key)
    assert passed.returncode == 0 and "PASSED" in passed.stdout, passed.stdout + passed.stderr


@pytest.mark.parametrize(
    ("key", "message"),
    [("", "needs an API key (set FLEET_API_KEY)"), ("guess", "rejected the API key")],
    ids=["no key", "wrong key"],
)
def test_a_command_without_the_token_is_told_to_set_it(served, key, message):
    base_url, _ = served
    result = fleet_tui("tools", "tracker", "--base-url", base_url, env={"FLEET_API_KEY": key})
    assert_one_line_error(result, 2, message)


@pytest.mark.parametrize("how", ["--token", "FLEET_TUI_LOCAL_TOKEN"])
def test_the_user_can_fix_the_token(how):
    chosen = "my-fixed-local-token"
    flags, env = (["--token", chosen], None) if how == "--token" else ([], {how: chosen})
    with serving(*flags, env=child_env(env)) as (_, base_url, token):
        assert token == chosen
        listed = httpx.get(f"{base_url}/v1/env/", headers={"Authorization": f"Bearer {chosen}"})
        assert listed.status_code == 200
        refused = httpx.get(f"{base_url}/v1/env/", headers={"Authorization": "Bearer other"})
        assert refused.status_code == 401


BAD_OPTIONS = {
    "port too big": ("--port", "99999", "is not a port number"),
    "port not a number": ("--port", "http", "is not a port number"),
    "token with a space": ("--token", "has space", "a token is visible ASCII"),
    "token with a newline": ("--token", "new\nline", "a token is visible ASCII"),
    "token not ASCII": ("--token", "caf\u00e9", "a token is visible ASCII"),
}


@pytest.mark.parametrize(("option", "value", "message"), BAD_OPTIONS.values(), ids=BAD_OPTIONS)
def test_a_bad_port_or_token_is_a_usage_error(option, value, message):
    result = subprocess.run(
        [sys.executable, "-m", "fleet_tui", "local", "serve", option, value],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
