"""Transports: `--mcp URL` over streamable HTTP or, when the URL answers as an SSE endpoint,
SSE; `--stdio 'COMMAND ARGS'` runs a server as a child process (its stderr kept, the child
stopped with fleet-tui); `--header 'Name: value'` reaches HTTP endpoints and is never shown or
recorded. Against server-everything (npm), mcp-server-time (PyPI) and servers of the tests'
own."""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fleet_tui.call_command import call_command
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import EndpointState, EndpointStatus, EnvError
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import McpTarget
from fleet_tui.target_argv import add_target_arguments
from tests.cli_run import assert_one_line_error, child_env, fleet_tui
from tests.fixtures.mcp_servers import BEARER_SEEN
from tests.processes import gone_soon, running
from tests.recorded import call_tool, recorded

STDIO_SERVER = Path(__file__).parent / "fixtures" / "stdio_server.py"
STDIO_COMMAND = shlex.join([sys.executable, str(STDIO_SERVER)])
TOKEN = "tok-header-never-shown-5150"


@pytest.fixture(params=["http", "sse", "stdio"])
def everything_over(request, everything) -> tuple[str, list[str]]:
    """(transport, the target options) of server-everything in each of its modes."""
    if request.param == "stdio":
        return "stdio", ["--stdio", everything.stdio_command]
    served = request.getfixturevalue(f"everything_{request.param}")
    return request.param, ["--mcp", served.url]


def test_server_everything_lists_its_tools_over_each_transport(everything_over):
    transport, options = everything_over
    result = fleet_tui("tools", *options, "--json")

    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert {"echo", "get-sum", "get-tiny-image"} <= {tool["name"] for tool in listed["tools"]}
    (endpoint,) = listed["endpoints"]
    assert (endpoint["state"], endpoint["transport"]) == ("up", transport)


def test_server_everything_answers_a_call_over_each_transport(everything_over):
    _, options = everything_over
    result = fleet_tui("call", *options, "get-sum", "--args", '{"a": 2, "b": 40}')

    assert result.returncode == 0, result.stderr
    assert "The sum of 2 and 40 is 42." in result.stdout


def test_an_sse_endpoint_is_spoken_to_over_sse_and_says_so(everything_sse):
    result = fleet_tui("tools", "--mcp", everything_sse.url)

    assert result.returncode == 0, result.stderr
    assert f"{everything_sse.url} answered as an SSE endpoint: speaking SSE to it" in result.stderr
    assert re.search(
        rf"{re.escape(everything_sse.url)}  \(up, over SSE, owns (\d+) of its \1 tools\)",
        result.stdout,
    )
    # the client declares roots, sampling and elicitation, so the server offers their tools too
    assert "get-roots-list" in result.stdout and "trigger-elicitation-request" in result.stdout


def test_the_status_bar_marks_an_endpoint_reached_over_sse():
    from fleet_tui.controller import Episode
    from fleet_tui.ui.widgets.status_bar import status_text

    sse = EndpointStatus(url="http://h:1/sse", state=EndpointState.UP, transport="sse")
    line = status_text("", None, [sse], Episode(), state="connected", connected_at=None)
    assert "/sse via SSE (0)" in line.plain


def test_a_stdio_endpoint_is_labelled_by_its_program_beside_http_ones():
    from fleet_tui.ui.widgets.tool_list import endpoint_labels

    stdio = "stdio: /usr/local/bin/node server.js --port 1"
    labels = endpoint_labels(["http://h/a/mcp", "http://h/b/mcp", stdio])
    assert labels == {
        "http://h/a/mcp": "/a/mcp",
        "http://h/b/mcp": "/b/mcp",
        stdio: "stdio: node server.js --port 1",
    }


def test_a_pypi_stdio_server_answers_through_stdio(mcp_server_time):
    listed = fleet_tui("tools", "--stdio", mcp_server_time, "--json")
    assert listed.returncode == 0, listed.stderr
    assert {"get_current_time", "convert_time"} <= {
        t["name"] for t in json.loads(listed.stdout)["tools"]
    }

    called = fleet_tui(
        "call", "--stdio", mcp_server_time, "get_current_time", "--args", '{"timezone": "UTC"}'
    )
    assert called.returncode == 0, called.stderr
    assert '"timezone": "UTC"' in called.stdout


def test_stdio_and_http_endpoints_mix_in_one_union(mcp_alpha):
    result = fleet_tui("tools", "--stdio", STDIO_COMMAND, "--mcp", mcp_alpha.url, "--json")

    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    owners = {tool["name"]: tool["endpoint"] for tool in listed["tools"]}
    assert owners["wait"] == f"stdio: {STDIO_COMMAND}"
    assert owners["alpha/echo"] == mcp_alpha.url, "a name both offer is qualified on each"
    assert [n for n in owners if n.endswith("/echo") and owners[n].startswith("stdio: ")]
    assert [e["transport"] for e in listed["endpoints"]] == ["http", "stdio"]


def test_headless_a_stdio_servers_stderr_goes_to_stderr():
    result = fleet_tui("call", "--stdio", STDIO_COMMAND, "echo", "-a", "text=hi")

    assert result.returncode == 0, result.stderr
    program = os.path.basename(sys.executable)
    assert f"[{program}] pid " in result.stderr


async def test_in_the_app_a_stdio_servers_stderr_is_kept_and_the_child_stops_on_close():
    env = make_env(McpTarget(stdio=[STDIO_COMMAND]))
    await env.connect()
    (endpoint,) = env.endpoints()
    pid = int(endpoint.output[0].removeprefix("pid "))
    assert running(pid)

    await env.close()
    assert gone_soon(pid)


def test_a_stdio_server_that_dies_at_start_says_why_in_its_own_words():
    dying = shlex.join([sys.executable, str(STDIO_SERVER), "--die", "missing API_TOKEN"])
    result = fleet_tui("tools", "--stdio", dying)
    assert_one_line_error(result, 2, "(its stderr ends: missing API_TOKEN)")

    missing = fleet_tui("tools", "--stdio", "no-such-mcp-server --port 1")
    assert_one_line_error(missing, 2, "cannot start 'no-such-mcp-server': no such command")


def test_sigterm_stops_the_stdio_server_with_the_command():
    command = [sys.executable, "-m", "fleet_tui", "call", "--stdio", STDIO_COMMAND]
    child = subprocess.Popen(
        [*command, "wait", "-a", "seconds=60"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=child_env(),
    )
    try:
        pid = None
        assert child.stderr is not None
        for line in child.stderr:
            if "] pid " in line:
                pid = int(line.rsplit(" ", 1)[1])
                break
        assert pid is not None and running(pid)
        time.sleep(1.0)  # the call is under way
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 128 + signal.SIGTERM
        assert gone_soon(pid)
    finally:
        if child.poll() is None:
            child.kill()


def test_a_header_reaches_the_server_and_is_never_printed(mcp_alpha):
    BEARER_SEEN["alpha"].clear()
    result = fleet_tui(
        *["call", "--mcp", mcp_alpha.url, "--header", f"Authorization: Bearer {TOKEN}"],
        *["echo", "-a", f"text=the token is {TOKEN}", "--json"],
    )

    assert result.returncode == 0, result.stderr
    assert f"Bearer {TOKEN}" in BEARER_SEEN["alpha"]
    assert TOKEN not in result.stdout + result.stderr
    assert "the token is [redacted]" in result.stdout


async def test_a_header_never_reaches_the_session_file(mcp_alpha, tmp_path):
    parser = argparse.ArgumentParser()
    add_target_arguments(parser)
    args = parser.parse_args(["--mcp", mcp_alpha.url, "--header", f"X-Api-Token: {TOKEN}"])
    target = target_from_args(args)
    path = tmp_path / "s.jsonl"
    async with recorded(target, path) as session:
        await call_tool(session, "echo", {"text": f"token {TOKEN}"})

    text = path.read_text()
    assert "token [redacted]" in text
    assert TOKEN not in text and "X-Api-Token" not in text


def test_bad_headers_are_refused_in_plain_words(mcp_alpha):
    no_colon = fleet_tui("tools", "--mcp", mcp_alpha.url, "--header", "Authorization Bearer x")
    assert_one_line_error(no_colon, 2, "--header expects 'Name: value'")
    no_mcp = fleet_tui("tools", "--stdio", STDIO_COMMAND, "--header", "A: b")
    assert_one_line_error(no_mcp, 2, "--header is sent to --mcp endpoints")


def test_the_copied_command_names_stdio_servers_and_hides_header_values():
    target = McpTarget(
        urls=["http://h:1/mcp"], stdio=["srv --port 2"], headers={"Authorization": "Bearer z"}
    )
    assert call_command(target, "echo", {}) == (
        "fleet-tui call --mcp http://h:1/mcp --stdio 'srv --port 2' "
        "--header 'Authorization: [redacted]' -- echo"
    )


async def test_the_app_shows_a_stdio_servers_stderr_and_stops_it_on_quitting(mcp_alpha):
    from fleet_tui.ui.app import FleetTuiApp
    from fleet_tui.ui.screens.endpoints import EndpointsScreen
    from tests.app_driver import SIZE, screen_text, wait_connected, wait_for

    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url], stdio=[STDIO_COMMAND]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        stdio = app.controller.env.endpoints()[1]
        pid = int(stdio.output[0].removeprefix("pid "))
        await app.run_action("show_endpoints")  # what the palette's entry runs
        await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
        shown = await wait_for(pilot, lambda: "stdio ·" in screen_text(app) and screen_text(app))
        assert f"stdio: {STDIO_COMMAND}"[:60] in shown
        assert "stdio · up · 2 tools" in shown and f"pid {pid}" in shown
        assert "streamable HTTP · up" in shown
        await pilot.press("ctrl+q")
    assert gone_soon(pid)


async def test_a_stdio_servers_endless_stderr_line_is_kept_in_bounded_pieces(tmp_path):
    from fleet_tui.envs.mcp_transports import OUTPUT_LINE_CHARS, OUTPUT_LINES

    flood = tmp_path / "flood.py"
    flood.write_text("import sys\nsys.stderr.write('x' * 10_000_000)\nsys.exit(1)\n")
    env = make_env(McpTarget(stdio=[shlex.join([sys.executable, str(flood)])]))
    with pytest.raises(EnvError, match="its stderr ends: x"):
        await env.connect()
    (endpoint,) = env.endpoints()
    await env.close()
    assert len(endpoint.output) == OUTPUT_LINES
    assert {len(line) for line in endpoint.output} == {OUTPUT_LINE_CHARS}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["sigterm", "sighup"]
)
def test_a_signal_to_the_app_stops_its_stdio_server_and_what_it_started(tmp_path, sig, code):
    from tests.test_app_signals import Terminal, wait_until

    daemonizing = shlex.join([sys.executable, str(STDIO_SERVER), "--spawn", "daemon"])
    command = [sys.executable, "-m", "fleet_tui", "--stdio", daemonizing, "--no-record"]
    terminal = Terminal(tmp_path, child_env(), *command)
    try:
        wait_until(lambda: "2/2 tools" in terminal.screen(), "the app to list the tools")
        terminal.tmux("send-keys", "-t", "app", "C-p")  # the palette's "Show the MCP endpoints"
        wait_until(lambda: "Search for commands" in terminal.screen(), "the palette")
        terminal.tmux("send-keys", "-t", "app", "-l", "MCP endpoints")
        wait_until(lambda: "stderr" in terminal.screen(), "the palette's entry")
        terminal.tmux("send-keys", "-t", "app", "Enter")

        def pids_shown() -> tuple[int, int] | None:
            screen = terminal.screen()
            pid = re.search(r"\bpid (\d+)", screen)
            descendant = re.search(r"descendant (\d+)", screen)
            return (int(pid.group(1)), int(descendant.group(1))) if pid and descendant else None

        pid, descendant = wait_until(pids_shown, "its stderr")
        assert running(pid) and running(descendant)
        os.kill(terminal.pid, sig)

        assert terminal.exit_code() == code, terminal.screen()
        assert gone_soon(pid) and gone_soon(descendant)
    finally:
        if not terminal.ended:
            os.kill(terminal.pid, signal.SIGKILL)
        terminal.close()


def test_the_proxy_for_an_endpoint_follows_the_environment_as_it_changes(monkeypatch):
    from fleet_tui.envs.mcp_http import environment_proxy

    url = "http://mcp.example.test/mcp"
    for name in ("http_proxy", "HTTP_PROXY", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert environment_proxy(url) is None
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example.test:3128")
    assert environment_proxy(url) == "http://proxy.example.test:3128"
    monkeypatch.setenv("NO_PROXY", "mcp.example.test")
    assert environment_proxy(url) is None
    monkeypatch.delenv("NO_PROXY")
    assert environment_proxy(url) == "http://proxy.example.test:3128"
