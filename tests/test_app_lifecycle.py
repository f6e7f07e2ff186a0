"""The app on the embedded local Fleet host: calls, reset, quit closes the instance, --keep,
an unknown env key."""

from __future__ import annotations

import pytest

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.progress_panel import ProgressPanel
from tests.app_driver import (
    SIZE,
    call,
    local_target,
    rendered_text,
    wait_connected,
    wait_for,
    wait_idle,
)
from tests.fixtures.local_host import AUTH


@pytest.fixture
def instances(local_host):
    """The instance ids running on the host (to check the app closes what it created)."""
    import httpx

    def running() -> set[str]:
        answer = httpx.get(
            f"{local_host.base_url}/v1/env/instances", timeout=10, headers=AUTH
        ).json()
        items = answer if isinstance(answer, list) else answer.get("instances", answer)
        return {i["instance_id"] for i in items if i.get("status", "running") == "running"}

    return running


async def test_tracker_call_reset_and_quit_closes_the_instance(local_host, instances):
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        instance = app.controller.env.info.instance_id
        assert instance in instances()
        status = str(app.query_one("#status").content)
        assert "tracker" in status and instance in status
        title = "Fix the [bold]login[/] page"
        entry = await call(pilot, "create_issue", {"project": "WEB", "title": title})
        assert entry.status == "ok", rendered_text(app)
        assert title in rendered_text(app)
        found = await call(pilot, "search_issues", {"query": {"text": "login"}})
        assert title in rendered_text(app), found
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.controller.records[-1].tool == "<reset>")
        await wait_idle(pilot)
        assert app.controller.records[-1].status == "ok"
        await call(pilot, "search_issues", {"query": {"text": "login"}})
        assert title not in rendered_text(app)
        # Reconnecting reopens the MCP connections of the same instance.
        env, panel = app.controller.env, app.query_one(ProgressPanel)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: panel.title.startswith("Reconnecting") and not panel.shown)
        await wait_connected(pilot)
        assert app.controller.env is env and app.controller.env.info.instance_id == instance
        assert instance in instances()
        assert (await call(pilot, "list_users")).status == "ok"
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, timeout=30)
    assert instance not in instances()


async def test_keep_leaves_the_instance_and_says_how_to_attach(local_host, instances):
    import httpx

    kept = local_target(local_host.base_url, "tracker").model_copy(update={"keep": True})
    app = FleetTuiApp(kept)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        instance = app.controller.env.info.instance_id
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, timeout=30)
    try:
        assert instance in instances()
        assert app.keep_note == [
            f"Instance {instance} is still running (--keep).",
            f"Attach again with: fleet-tui --instance {instance} --base-url {local_host.base_url}",
        ]
    finally:
        httpx.delete(f"{local_host.base_url}/v1/env/instances/{instance}", timeout=10, headers=AUTH)


async def test_unknown_env_key_shows_a_banner_and_the_app_stays_up(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "no-such-env"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.banner.shown, timeout=30)
        assert "no-such-env" in app.banner.message and app.banner.action == "reconnect"
        assert app.controller.state == "disconnected" and app.is_running
