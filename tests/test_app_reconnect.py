"""The app against a real MCP server that dies: banner with reconnect, reconnecting recovers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for
from tests.fixtures.mcp_servers import free_port


def serve_beta(port: int) -> subprocess.Popen:
    """The `beta` MCP server in a child process on `port`."""
    code = (
        "import uvicorn; from tests.fixtures.mcp_servers import build_server; "
        "uvicorn.run(build_server('beta').streamable_http_app(), host='127.0.0.1', "
        f"port={port}, log_level='warning')"
    )
    return subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.DEVNULL)


async def test_server_death_shows_banner_and_reconnect_recovers():
    port = free_port()
    server = serve_beta(port)
    url = f"http://127.0.0.1:{port}/mcp"
    wait_until(lambda: port_open(port))
    app = FleetTuiApp(McpTarget(urls=[url]))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait_connected(pilot)
            assert (await call(pilot, "whoami")).status == "ok"
            env = app.controller.env
            server.kill()
            server.wait()
            entry = await call(pilot, "whoami")
            assert entry.status == "failed"
            await wait_for(pilot, lambda: app.banner.shown)
            assert app.banner.action == "reconnect"
            server = serve_beta(port)
            await wait_for(pilot, lambda: port_open(port))
            await pilot.click("#banner-button")
            await wait_connected(pilot)
            await wait_for(pilot, lambda: not app.banner.shown)
            entry = await call(pilot, "whoami")
            assert entry.status == "ok" and "beta" in rendered_text(app)
            assert app.controller.env is env, "reconnecting reopens the same env's connections"
    finally:
        server.kill()


def wait_until(condition, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0
