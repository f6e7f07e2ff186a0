"""A tool its server marks destructive (`destructiveHint: true`, the catalog server's `wipe`)
is asked about before its first call: in the app once per tool per session, by `fleet-tui
call` on a terminal (`--yes` skips it); an agent's call through the proxy is never asked
about, and neither is a call whose stdin is no terminal."""

from __future__ import annotations

import shlex
import shutil
import sys

import pytest

from fleet_tui.controller import CallStatus
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.confirm_screen import ConfirmScreen
from tests.agent_driver import watched
from tests.app_driver import SIZE, wait_connected, wait_for, wait_idle
from tests.cli_run import fleet_tui


def wipes(app: FleetTuiApp) -> list:
    return [record for record in app.controller.records if record.tool == "wipe"]


async def test_the_app_asks_once_before_a_destructive_tools_first_call(catalog_mcp):
    app = FleetTuiApp(McpTarget(urls=[catalog_mcp.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("wipe")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "wipe is marked destructive" in str(
            app.screen.query_one("#confirm-question").content
        )
        await pilot.press("enter")  # No has the focus: nothing is called
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert wipes(app) == []
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: wipes(app) and wipes(app)[0].status == CallStatus.OK)
        await wait_idle(pilot)
        await pilot.press("ctrl+s")  # asked once per tool: the second call goes at once
        await wait_for(pilot, lambda: len(wipes(app)) == 2)
        assert not isinstance(app.screen, ConfirmScreen)
        await app.show_tool("look")
        await pilot.press("ctrl+s")  # not destructive: never asked
        await wait_for(pilot, lambda: any(r.tool == "look" for r in app.controller.records))


async def test_an_agents_call_through_the_proxy_is_never_asked_about(catalog_mcp):
    async with watched(McpTarget(urls=[catalog_mcp.url])) as w:
        result = await w.finish(w.call("wipe"))
        assert result.content[0].text == "wiped"
        assert not isinstance(w.app.screen, ConfirmScreen)


def test_call_without_a_terminal_is_not_stopped(catalog_mcp):
    result = fleet_tui("call", "--mcp", catalog_mcp.url, "wipe")
    assert result.returncode == 0, result.stderr
    assert "wiped" in result.stdout and "destructive" not in result.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize(("options", "keys", "shown"), [
    ([], ["n", "Enter"], ["Call it? [y/N]", "wipe was not called", "exit=1"]),
    ([], ["y", "Enter"], ["Call it? [y/N]", "wiped", "exit=0"]),
    (["--yes"], [], ["wiped", "exit=0"]),
])  # fmt: skip
def test_call_on_a_terminal_asks_first_unless_yes(catalog_mcp, options, keys, shown):
    from tests.test_tmux_e2e import start_in_tmux, tmux, wait_screen

    command = shlex.join(
        [sys.executable, "-m", "fleet_tui", "call", "--mcp", catalog_mcp.url, "wipe", *options]
    )
    session = start_in_tmux(f"{command}; echo exit=$?; sleep 60", "wipe", size=(150, 20))
    try:
        if keys:
            wait_screen(session, "Call it? [y/N]")
            tmux("send-keys", "-t", session, *keys)
        text = wait_screen(session, *shown)
    finally:
        tmux("kill-session", "-t", session)
    if options:
        assert "Call it?" not in text
