"""Env text that would act on a terminal or leak a secret: secret `--env` values and a tool
named like an option in the copied `fleet-tui call` command."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from mcp.server.mcpserver import MCPServer

from fleet_tui.targets import Target
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected, wait_for
from tests.fixtures.mcp_servers import BEARER_SEEN, ServedMcp, serve_in_thread

SECRET_ENV = "tok-env-never-shown-31337"


async def test_the_copied_command_and_its_toast_redact_secret_env_values(mcp_alpha):
    target = Target(mcp=[mcp_alpha.url], env_variables={"API_TOKEN": SECRET_ENV, "MODE": "fast"})
    app = FleetTuiApp(target)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await app.show_tool("echo", {"text": "hi"})
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.clipboard)
        assert "--env 'API_TOKEN=[redacted]' --env MODE=fast" in app.clipboard
        toasts = " ".join(notification.message for notification in app._notifications)
        assert app.clipboard in toasts
        assert SECRET_ENV not in app.clipboard + toasts + app.export_screenshot()


@pytest.fixture
def lure() -> Iterator[ServedMcp]:
    """A server no call should reach."""
    BEARER_SEEN["lure"] = []
    served = serve_in_thread("lure", MCPServer("lure", log_level="WARNING"))
    yield served
    served.stop()


async def test_a_tool_named_like_an_option_stays_a_name_when_the_copied_command_runs(lure):
    name = f"--mcp={lure.url}"
    server = MCPServer("dashes", log_level="WARNING")
    server.add_tool(lambda: "called by its name", name=name, description="An option?")
    dashes = serve_in_thread("dashes", server)
    try:
        app = FleetTuiApp(Target(mcp=[dashes.url]))
        async with app.run_test(size=SIZE) as pilot:
            await wait_connected(pilot)
            await app.show_tool(name)
            await pilot.press("ctrl+y")
            command = await wait_for(pilot, lambda: app.clipboard)
        bin_dir = os.path.dirname(sys.executable)  # where `fleet-tui` is installed
        pasted = subprocess.run(
            ["bash", "-c", command],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        )
    finally:
        dashes.stop()

    assert pasted.returncode == 0, pasted.stderr
    assert "called by its name" in pasted.stdout
    assert BEARER_SEEN["lure"] == [], "the name did not become --mcp"
