"""The app signs in where an MCP server asks for OAuth (Pilot, a real SDK server with its own
authorization server): the dialog shows the authorization URL while the connection waits, and
closes once the "browser" (an HTTP client following the URL's redirects) comes back (`c` copies
the URL first); cancelling
it gives the connection up with a plain error. No token reaches the session file or the
protocol log."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.sign_in_screen import SignInScreen
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, screen_text, wait_connected, wait_for
from tests.fixtures.oauth_server import TOOL_NAMES, SignedInServer, serve_oauth_server


@pytest.fixture(autouse=True)
def private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


async def test_the_sign_in_dialog_shows_the_url_and_connects_once_the_browser_is_back(
    oauth_server: SignedInServer, tmp_path: Path
) -> None:
    features = TaskFeatures(recorder=SessionRecorder(tmp_path / "s.jsonl"))
    app = FleetTuiApp(McpTarget(urls=[oauth_server.url]), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await wait_for(pilot, lambda: isinstance(app.screen, SignInScreen) and app.screen)
        await pilot.pause()
        url = dialog.request.url
        shown = screen_text(app)
        assert "asks you to sign in (OAuth)" in shown and "/authorize?" in shown
        await pilot.press("c")
        assert app.clipboard == url
        async with httpx2.AsyncClient(follow_redirects=True) as browser:
            assert (await browser.get(url)).status_code == 200
        await wait_connected(pilot)
        assert not isinstance(app.screen, SignInScreen)
        assert [tool.name for tool in app.controller.tools] == TOOL_NAMES
        logged = " ".join(str(entry.as_json()) for entry in app.controller.traffic)
    features.close()
    recorded = (tmp_path / "s.jsonl").read_text()
    assert "whoami" in recorded
    for token in oauth_server.provider.issued:
        assert token not in recorded and token not in logged


async def test_cancelling_the_sign_in_gives_the_connection_up_plainly(
    oauth_server: SignedInServer,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[oauth_server.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SignInScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: "sign-in" in screen_text(app))
        assert "cancelled" in screen_text(app)
        assert not isinstance(app.screen, SignInScreen)
    assert oauth_server.provider.authorizations == 0


async def test_two_servers_signing_in_at_once_leave_no_dialog_behind() -> None:
    first, second = serve_oauth_server(), serve_oauth_server()
    try:
        app = FleetTuiApp(McpTarget(urls=[first.url, second.url]))
        async with app.run_test(size=SIZE) as pilot:

            def dialogs() -> list[SignInScreen]:
                return [screen for screen in app.screen_stack if isinstance(screen, SignInScreen)]

            lower, upper = await wait_for(pilot, lambda: len(dialogs()) == 2 and dialogs())
            async with httpx2.AsyncClient(follow_redirects=True) as browser:
                for dialog in (lower, upper):  # the covered one's browser comes back first
                    assert (await browser.get(dialog.request.url)).status_code == 200
            await wait_for(
                pilot,  # both servers' tools, the names they share qualified on each
                lambda: len(app.controller.tools) == 2 * len(TOOL_NAMES) and not dialogs(),
            )
            assert len(app.screen_stack) == 1
    finally:
        first.served.stop()
        second.served.stop()
