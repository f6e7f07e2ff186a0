"""The headless commands' lifecycle end to end: --keep and --instance, one-line errors with
their exit codes, and Ctrl+C / SIGTERM / SIGHUP while an instance is being provisioned.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from tests.cli_run import (
    TASKS,
    assert_one_line_error,
    child_env,
    fleet_tui,
    run_together,
    running_ids,
)
from tests.fixtures.mcp_servers import free_port


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


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
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
    deadline = time.monotonic() + 30
    while slow_host.creates_seen == creates:  # wait until the create request reaches the host
        assert child.poll() is None and time.monotonic() < deadline, "no create request came"
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
