"""`fleet-tui local serve`: prints FLEET_BASE_URL and FLEET_API_KEY, serves the SDK, stops
cleanly on signals."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import fleet
import httpx
import pytest

from tests.cli_run import TASKS, assert_one_line_error, child_env, fleet_tui


def start_serving(*extra: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, str]:
    """`fleet-tui local serve EXTRA` and its base URL (its token: `served_token`)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "local", "serve", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    line = process.stdout.readline().strip()
    assert line.startswith("FLEET_BASE_URL=http://127.0.0.1:"), line
    return process, line.removeprefix("FLEET_BASE_URL=")


def served_token(process: subprocess.Popen) -> str:
    """The token `local serve` prints on its second line, as a line to export."""
    line = process.stdout.readline().strip()
    assert line.startswith("FLEET_API_KEY="), line
    return line.removeprefix("FLEET_API_KEY=")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_serve_answers_and_stops_cleanly(stop):
    process, base_url = start_serving()
    auth = {"Authorization": f"Bearer {served_token(process)}"}
    try:
        created = httpx.post(
            f"{base_url}/v1/env/instances", json={"env_key": "tracker"}, headers=auth
        )
        assert created.status_code == 200 and created.json()["status"] == "running"
        health = httpx.get(created.json()["urls"]["health"], headers=auth)
        assert health.json()["status"] == "healthy"
        process.send_signal(stop)
        assert process.wait(timeout=20) == 0
        assert "local host stopped" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()


def test_busy_port_is_a_one_line_error():
    process, base_url = start_serving()
    try:
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
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture
def served():
    """A `fleet-tui local serve` process: (base URL, the token it printed)."""
    process, base_url = start_serving()
    yield base_url, served_token(process)
    process.terminate()
    process.wait(timeout=20)


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
    process, base_url = start_serving(*flags, env=child_env(env))
    try:
        assert served_token(process) == chosen
        listed = httpx.get(f"{base_url}/v1/env/", headers={"Authorization": f"Bearer {chosen}"})
        assert listed.status_code == 200
        refused = httpx.get(f"{base_url}/v1/env/", headers={"Authorization": "Bearer other"})
        assert refused.status_code == 401
    finally:
        process.terminate()
        process.wait(timeout=20)


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
