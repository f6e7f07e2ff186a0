"""Held calls in the app's Agent pane: each shows how long it has waited and when its agent's
client likely gives up; `a` releases every held call at once; `k` shows the full token and
`w` writes the client config to a file only its owner reads. The app runs under Pilot with
`--serve-mcp`; the agent is an mcp ClientSession over real HTTP."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from fleet_tui.envs.targets import Target
from fleet_tui.ui.widgets.agent_pane import HeldCalls
from tests.agent_driver import watched
from tests.app_driver import screen_text, wait_for


def held_text(app) -> str:
    """The first held call's line in the Agent pane."""
    held = app.query_one(HeldCalls)
    return str(held.get_option_at_index(0).prompt) if held.option_count else ""


def toasts(app) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


async def test_the_agent_pane_shows_hold_ages_and_releases_all_at_once(two_servers: Target):
    async with watched(two_servers) as w:
        await w.pilot.press("f11")
        first = w.call("echo", {"text": "one"})
        second = w.call("echo", {"text": "two"})
        await wait_for(w.pilot, lambda: len(w.held) == 2)
        await w.pilot.press("ctrl+n")
        # the SDK's ClientSession names itself `mcp`, as openai-agents' client does
        await wait_for(w.pilot, lambda: "(openai-agents) gives up at 5 s" in held_text(w.app))
        assert held_text(w.app).startswith("#1 echo  paused\nheld ")
        await wait_for(w.pilot, lambda: "likely gave up at 5 s" in held_text(w.app), 30)
        await w.pilot.press("a")
        assert [(await w.finish(c)).content[0].text for c in (first, second)] == ["one", "two"]
        assert w.watch.calls.gate.paused, "releasing all at once does not resume"


async def test_the_agent_pane_shows_the_token_and_writes_the_config(
    two_servers: Target, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    async with watched(two_servers) as w:
        token = w.watch.server.token
        assert token not in screen_text(w.app)
        await w.pilot.press("ctrl+n", "k")
        await wait_for(w.pilot, lambda: token in toasts(w.app))
        await w.pilot.press("w")
        written = await wait_for(w.pilot, lambda: next((p for p in tmp_path.rglob("*.json")), None))
        assert str(written) in toasts(w.app)
        config = json.loads(written.read_text())["mcpServers"]["fleet-tui"]
        assert config["url"] == w.watch.server.url
        assert config["headers"] == {"Authorization": f"Bearer {token}"}
        assert stat.S_IMODE(written.stat().st_mode) == 0o600
