"""The headless commands end to end, each in a subprocess, against the embedded Fleet host
(through `--base-url`, so the test can see which instances stay running), plain MCP servers
and an OpenEnv server.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fleet_tui.commands.call import parse_arguments
from tests.fixtures.local_host import TEST_API_KEY
from tests.fixtures.mcp_servers import ServedMcp, free_port

TASKS = {
    "tasks": [
        {
            "id": "count-issues",
            "prompt": "Count the issues.",
            "env_id": "tracker",
            "verifier_func": (
                "def verify(env, final_answer=None):\n"
                "    rows = env.db('current').query('select count(*) from issues').rows\n"
                "    print('issues:', rows[0][0])\n"
                "    return 1.0 if str(rows[0][0]) == final_answer else 0.0\n"
            ),
        },
        {
            "key": "explodes",
            "env_key": "tracker",
            "verifier": {"code": "def verify(env, final_answer=None):\n    raise KeyError('x')\n"},
        },
    ]
}


def fleet_tui(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run `python -m fleet_tui ARGS` with the test API key; never waits more than a minute."""
    return subprocess.run(
        [sys.executable, "-m", "fleet_tui", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(env),
    )


def run_together(
    *commands: list[str], env: dict[str, str] | None = None
) -> list[subprocess.CompletedProcess]:
    """Run several `python -m fleet_tui` commands at once; their results in order."""
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "fleet_tui", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=child_env(env),
        )
        for command in commands
    ]
    results = []
    for child in children:
        stdout, stderr = child.communicate(timeout=60)
        results.append(subprocess.CompletedProcess(child.args, child.returncode, stdout, stderr))
    return results


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("FLEET_")}
    return {**base, "FLEET_API_KEY": TEST_API_KEY, **(extra or {})}


def running_ids(local_host) -> set[str]:
    return {i.instance_id for i in local_host.registry.instances.values() if i.running}


def assert_one_line_error(result: subprocess.CompletedProcess, code: int, text: str) -> None:
    assert result.returncode == code, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("fleet-tui: ") and text in last, result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture
def host(local_host) -> Iterator[list[str]]:
    """`--base-url` for the local host; checks the command left no instance running."""
    before = running_ids(local_host)
    yield ["--base-url", local_host.base_url]
    assert running_ids(local_host) == before, "the command left an instance running"


# -- happy paths -------------------------------------------------------------------------------


def test_envs(host):
    result = fleet_tui("envs", *host, "--json")

    assert result.returncode == 0, result.stderr
    assert {env["env_key"] for env in json.loads(result.stdout)} == {"tracker", "desktop-todo"}


def test_tools_lists_the_union_with_owners(host, local_host):
    result = fleet_tui("tools", "tracker", *host, "--json")

    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    endpoints = {
        tool["endpoint"].split("/instances/")[1].split("/", 1)[1] for tool in listing["tools"]
    }
    assert endpoints == {"mcp", "api/v1/mcp"}
    assert [e["state"] for e in listing["endpoints"]] == ["up", "up"]


def test_call_saves_the_screenshot(host, tmp_path):
    result = fleet_tui(
        "call",
        "desktop-todo",
        *host,
        "computer",
        "-a",
        "action=screenshot",
        "--save-images",
        str(tmp_path),
    )

    assert result.returncode == 0, result.stderr
    saved = list(tmp_path.glob("*.png"))
    assert len(saved) == 1 and saved[0].read_bytes().startswith(b"\x89PNG")
    assert str(saved[0]) in result.stdout


def test_args_json_and_pairs_merge_with_json_values():
    arguments = parse_arguments('{"project": "WEB", "limit": 5}', ["limit=2", "q=a b", "on=true"])

    assert arguments == {"project": "WEB", "limit": 2, "q": "a b", "on": True}


def test_call_tool_error_exits_1(host):
    result = fleet_tui("call", "tracker", *host, "get_issue", "-a", "issue_id=99999")

    assert_one_line_error(result, 1, "tool 'get_issue' reported an error")
    assert "99999" in result.stdout


def test_reset_with_seed(host):
    result = fleet_tui("reset", "tracker", *host, "--seed", "3", "--json")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["success"] is True
    assert json.loads(result.stdout)["seed"] == 3


def test_verify_passing_and_raising_verifiers(host, tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(TASKS))
    verify = ["verify", *host, "--tasks", str(tasks), "--task"]

    passed, raised = run_together(
        [*verify, "count-issues", "--final-answer", "8"], [*verify, "explodes", "--json"]
    )

    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "PASSED" in passed.stdout and "issues: 8" in passed.stdout
    assert raised.returncode == 1, raised.stderr
    verdict = json.loads(raised.stdout)
    assert (verdict["success"], verdict["error_type"]) == (False, "KeyError")


def test_keep_then_attach(local_host):
    base = ["--base-url", local_host.base_url]
    kept = fleet_tui("tools", "tracker", *base, "--keep")
    instance_id = kept.stderr.split("kept instance ")[1].split(";")[0]
    attached = fleet_tui("call", *base, "--instance", instance_id, "list_users")
    still_running = instance_id in running_ids(local_host)
    local_host.registry.stop(local_host.registry.instances[instance_id])

    assert kept.returncode == 0, kept.stderr
    assert f"fleet-tui --instance {instance_id}" in kept.stderr
    assert attached.returncode == 0, attached.stderr
    assert still_running, "attaching must never close the instance"


def test_plain_mcp_endpoints_without_importing_the_ui(mcp_alpha: ServedMcp, mcp_beta: ServedMcp):
    tools = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "fleet_tui",
            "tools",
            "--mcp",
            mcp_alpha.url,
            "--mcp",
            mcp_beta.url,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(),
    )
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in tools.stderr.splitlines()
        if line.startswith("import time:")
    ]

    assert tools.returncode == 0, tools.stderr
    assert "10 tools" in tools.stdout
    assert f"{mcp_beta.url}  (up, owns 5 of its 8 tools)" in tools.stdout
    assert "'clash'" in tools.stderr, "the conflict is reported"
    assert "mcp.client.session" in imported
    heavy = ("textual", "fleet_tui.ui", "fleet.")
    assert not [name for name in imported if name == "fleet" or name.startswith(heavy)]


def test_openenv_target(openenv_server):
    called = fleet_tui("call", "--openenv", openenv_server.base_url, "echo", "-a", "text=hi there")

    assert called.returncode == 0, called.stderr
    assert "hi there" in called.stdout


def test_escape_sequences_from_the_env_are_stripped(mcp_alpha: ServedMcp):
    result = fleet_tui(
        "call", "--mcp", mcp_alpha.url, "echo", "-a", "text=\x1b]0;pwned\x07\x1b[31mred\x1b[0m"
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout == "red\n"


# -- errors ------------------------------------------------------------------------------------


def test_errors_are_one_line_with_the_right_exit_code(local_host, tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(TASKS))
    host = ["--base-url", local_host.base_url]
    before = running_ids(local_host)
    count = len(local_host.registry.instances)
    no_key = {"FLEET_API_KEY": "", "HOME": str(tmp_path)}

    missing_key, bad_args, unknown_task = run_together(
        ["tools", "tracker"],
        ["call", "tracker", *host, "echo", "--args", "{oops"],
        ["verify", *host, "--tasks", str(tasks), "--task", "nope"],
        env=no_key,
    )
    created_by_fast_failures = len(local_host.registry.instances) - count
    bad_env, unknown_tool = run_together(
        ["tools", "nope", *host], ["call", "tracker", *host, "nope"]
    )

    assert_one_line_error(missing_key, 2, "FLEET_API_KEY is not set")
    assert "--local" in missing_key.stderr
    assert_one_line_error(bad_args, 2, "--args is not valid JSON")
    assert_one_line_error(
        unknown_task, 2, "no task 'nope' in the file (tasks: count-issues, explodes)"
    )
    assert created_by_fast_failures == 0, "bad input fails before provisioning"
    assert_one_line_error(
        bad_env, 2, "Environment 'nope' not found (available: desktop-todo, tracker)"
    )
    assert_one_line_error(unknown_tool, 2, "unknown tool 'nope' (available: ")
    assert running_ids(local_host) == before


# -- interrupted while provisioning ------------------------------------------------------------


class SlowCreateProxy:
    """A real HTTP proxy in front of the host that holds each create request for `delay_s`,
    so a signal can land while the instance is being provisioned."""

    def __init__(self, upstream: str, delay_s: float) -> None:
        import uvicorn
        from starlette.applications import Starlette
        from starlette.requests import Request
        from starlette.responses import Response
        from starlette.routing import Route

        async def forward(request: Request) -> Response:
            import httpx

            if request.method == "POST" and request.url.path == "/v1/env/instances":
                self.creates_seen += 1
                await asyncio.sleep(delay_s)
            headers = {k: v for k, v in request.headers.items() if k.lower() != "host"}
            async with httpx.AsyncClient(base_url=upstream, timeout=30) as client:
                answer = await client.request(
                    request.method,
                    request.url.path,
                    params=request.query_params,
                    content=await request.body(),
                    headers=headers,
                )
            return Response(
                answer.content, answer.status_code, media_type=answer.headers.get("content-type")
            )

        methods = ["GET", "POST", "DELETE", "PUT", "PATCH"]
        app = Starlette(routes=[Route("/{path:path}", forward, methods=methods)])
        self.creates_seen = 0
        self.port = free_port()
        self.server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def slow_host(local_host) -> Iterator[SlowCreateProxy]:
    proxy = SlowCreateProxy(local_host.base_url, delay_s=1.5)
    yield proxy
    proxy.stop()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_during_provisioning_closes_the_instance(local_host, slow_host, sig, code):
    before_all = set(local_host.registry.instances)
    before_running = running_ids(local_host)
    creates = slow_host.creates_seen
    child = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "tools", "tracker", "--base-url", slow_host.base_url],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    lines = wait_for_line(child, "Provisioning tracker")
    while slow_host.creates_seen == creates:  # the create request reached the host's door
        time.sleep(0.01)
    child.send_signal(sig)
    _, stderr = child.communicate(timeout=60)

    made = set(local_host.registry.instances) - before_all
    assert child.returncode == code, lines + stderr
    assert "Traceback" not in stderr
    assert len(made) == 1, "the create went through"
    assert running_ids(local_host) == before_running


def wait_for_line(child: subprocess.Popen, text: str) -> str:
    seen = ""
    while text not in seen:
        line = child.stderr.readline()
        if not line:
            child.kill()
            raise AssertionError(f"the command ended before printing {text!r}: {seen}")
        seen += line
    return seen


def test_local_flag_runs_the_embedded_host_in_process(tmp_path: Path):
    result = fleet_tui("call", "--local", "tracker", "list_users", "--json")

    assert result.returncode == 0, result.stderr
    assert "Starting the embedded local Fleet host" in result.stderr
