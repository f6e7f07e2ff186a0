"""Hostile hosts and servers against the headless commands, each in a subprocess: a host that
echoes the API key back in its errors, a plain web server where a Fleet host should be, and an
MCP server whose results carry terminal escapes. Errors are one clean line on stderr, stdout
stays empty or valid JSON, and the API key never appears anywhere.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli_run import assert_one_line_error, child_env, fleet_tui
from tests.fixtures.openenv_servers import ThreadServer, serve_in_thread

SECRET = "sk-test-SECRET123"


async def echo_key_host(scope, receive, send) -> None:
    """A Fleet-ish host that fails every request with the Authorization header in its body."""
    if scope["type"] != "http":
        return
    auth = dict(scope["headers"]).get(b"authorization", b"").decode()
    body = json.dumps({"detail": f"internal error for {auth}"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 500,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def html_host(scope, receive, send) -> None:
    """A plain web server: an HTML error page (several lines) for every request."""
    if scope["type"] != "http":
        return
    body = b"<!DOCTYPE HTML>\n<html>\n  <body>\n    <h1>Error response</h1>\n  </body>\n</html>\n"
    await send(
        {"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"text/html")]}
    )
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def echo_key_url() -> Iterator[str]:
    served: ThreadServer = serve_in_thread(echo_key_host)
    yield served.base_url
    served.stop()


@pytest.fixture(scope="module")
def html_url() -> Iterator[str]:
    served: ThreadServer = serve_in_thread(html_host)
    yield served.base_url
    served.stop()


@pytest.mark.parametrize(
    "command",
    [
        ["envs", "--json"],
        ["tools", "tracker", "--json"],
        ["call", "--instance", "abc", "list_users"],
        ["reset", "tracker"],
    ],
    ids=["envs", "tools", "call", "reset"],
)
def test_the_api_key_never_appears_in_an_error(echo_key_url, command):
    result = fleet_tui(*command, "--base-url", echo_key_url, env={"FLEET_API_KEY": SECRET})

    assert_one_line_error(result, 2, "cannot")
    assert SECRET not in result.stdout + result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("command", [["envs"], ["tools", "tracker"]], ids=["envs", "tools"])
def test_a_web_page_where_a_host_should_be_is_one_short_line(html_url, command):
    result = fleet_tui(*command, "--base-url", html_url)

    assert_one_line_error(result, 2, "HTTP 404")
    assert len(result.stderr.strip().splitlines()[-1]) < 200
    assert "<html>" not in result.stderr


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_tool_echoing_the_api_key_does_not_print_it(mcp_alpha, as_json):
    flags = ["--json"] if as_json else []
    result = fleet_tui(
        "call",
        "--mcp",
        mcp_alpha.url,
        "echo",
        "-a",
        f"text=key {SECRET}",
        *flags,
        env={"FLEET_API_KEY": SECRET},
    )

    assert result.returncode == 0, result.stderr
    assert SECRET not in result.stdout + result.stderr
    assert "key [redacted]" in (
        json.loads(result.stdout)["blocks"][0]["text"] if as_json else result.stdout
    )


HOSTILE_TASKS = {
    "tasks": [
        {
            "key": "esc\x1b[2Jtask",
            "env_key": "tracker",
            "verifier_func": (
                "def verify(env, final_answer=None):\n"
                "    print('A\\x1b]0;pwned\\x07B')\n"
                "    raise ValueError('boom\\x1b[2J')\n"
            ),
        }
    ]
}


def test_check_prints_no_terminal_escapes_from_task_files(local_host, tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(HOSTILE_TASKS))

    result = fleet_tui("check", "--base-url", local_host.base_url, "--tasks", str(tasks))

    assert result.returncode == 1, result.stderr
    assert "esctask" in result.stdout and "boom" in result.stdout
    assert "\x1b" not in result.stdout + result.stderr


def test_replay_prints_no_terminal_escapes_from_the_session(local_host, tmp_path):
    gold = Path(__file__).parent / "data" / "gold" / "tracker-assign-safari-crash.jsonl"
    session = tmp_path / "session.jsonl"
    session.write_text(gold.read_text().replace('"update_issue"', '"update_issue\\u001b[2J"'))

    result = fleet_tui("replay", str(session), "tracker", "--base-url", local_host.base_url)

    assert result.returncode == 1, result.stderr
    assert "DIVERGED" in result.stdout
    assert "\x1b" not in result.stdout + result.stderr


def test_a_reader_that_stops_early_ends_the_command_quietly(mcp_beta):
    """`fleet-tui call ... | head -c 10` on a 1.5 MB result: stdout closes early; no error."""
    command = ["call", "--mcp", mcp_beta.url, "big", "--json"]
    child = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    child.stdout.read(10)
    child.stdout.close()
    stderr = child.stderr.read().decode()
    child.wait(timeout=60)

    assert child.returncode == 141, stderr
    assert "error" not in stderr and "Traceback" not in stderr, stderr


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_lone_surrogates_in_a_task_file_print_as_valid_utf8(local_host, tmp_path, as_json):
    tasks = tmp_path / "tasks.json"
    verifier = "def verify(env, final_answer=None):\n    return 0.0\n"
    task = {"key": "a\udcffb\ud800c", "env_key": "tracker", "verifier_func": verifier}
    tasks.write_text(json.dumps({"tasks": [task]}))  # JSON escapes the lone surrogates
    flags = ["--json"] if as_json else []
    command = ["check", "--base-url", local_host.base_url, "--tasks", str(tasks), *flags]
    result = subprocess.run(
        [sys.executable, "-m", "fleet_tui", *command],
        capture_output=True,
        timeout=60,
        env=child_env(),
    )

    stdout = result.stdout.decode("utf-8")  # raises on the raw bytes a surrogate would leave
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr.decode("utf-8")
    if as_json:
        assert json.loads(stdout)["tasks"][0]["key"].startswith("a")
    else:
        assert "a\\udcffb\\ud800c" in stdout


@pytest.mark.parametrize("command", ["verify", "check", "replay"])
@pytest.mark.parametrize("timeout", ["0", "-1", "nan"])
def test_a_verifier_time_limit_must_be_above_zero(local_host, command, timeout):
    count = len(local_host.registry.instances)
    tasks = Path(__file__).parents[1] / "fleet_tui" / "local" / "tasks" / "tracker.json"
    first = {
        "verify": ["--tasks", str(tasks), "--task", "tracker-assign-safari-crash"],
        "check": ["--tasks", str(tasks)],
        "replay": [str(Path(__file__).parent / "data" / "gold" / "tracker-plan-dark-mode.jsonl")],
    }[command]
    result = fleet_tui(command, *first, "--base-url", local_host.base_url, "--timeout", timeout)

    assert result.returncode == 2, result.stderr
    assert "--timeout" in result.stderr and "Traceback" not in result.stderr
    assert len(local_host.registry.instances) == count, "nothing is provisioned for a usage error"
