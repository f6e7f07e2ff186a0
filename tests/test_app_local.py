"""The app on the embedded local Fleet host: the tracker (tool use) and desktop-todo (computer use).

The real fleet-python SDK provisions instances on the session's local host; the app drives them.
"""

from __future__ import annotations

import json

import pytest

from fleet_tui.local.envs import todo_gui
from fleet_tui.targets import Target
from fleet_tui.ui import images
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for, wait_idle
from tests.fixtures.local_host import TEST_API_KEY


def target(local_host, env_key: str) -> Target:
    return Target(env_key=env_key, base_url=local_host.base_url, api_key=TEST_API_KEY)


def todo_titles(entry) -> list[str]:
    state = entry.result.structured or json.loads(entry.result.text())
    return [todo["title"] for todo in state["todos"]]


def cell_inside(box, rendered: tuple[int, int]) -> tuple[int, int]:
    """A terminal cell of the rendered screenshot whose centre falls inside `box` (pixels)."""
    for row in range(rendered[1]):
        for column in range(rendered[0]):
            point = images.cell_to_pixel((column, row), rendered, (todo_gui.WIDTH, todo_gui.HEIGHT))
            if todo_gui.inside(box, *point):
                return (column, row)
    raise AssertionError(f"no cell centre inside {box} at {rendered}")


@pytest.fixture
def instances(local_host):
    """The instance ids running on the host (to check the app closes what it created)."""
    import httpx

    def running() -> set[str]:
        answer = httpx.get(f"{local_host.base_url}/v1/env/instances", timeout=10).json()
        items = answer if isinstance(answer, list) else answer.get("instances", answer)
        return {i["instance_id"] for i in items if i.get("status", "running") == "running"}

    return running


async def test_tracker_call_reset_and_quit_closes_the_instance(local_host, instances):
    app = FleetTuiApp(target(local_host, "tracker"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        instance = app.env.info.instance_id
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
        await wait_for(pilot, lambda: app.entries[-1].tool == "<reset>")
        await wait_idle(pilot)
        assert app.entries[-1].status == "ok"
        await call(pilot, "search_issues", {"query": {"text": "login"}})
        assert title not in rendered_text(app)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, timeout=30)
    assert instance not in instances()


async def test_desktop_todo_screenshot_click_and_typing(local_host):
    app = FleetTuiApp(target(local_host, "desktop-todo"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        pane = app.screenshot_pane
        assert pane.display and pane.image.picture is not None
        assert pane.image.picture.size == (todo_gui.WIDTH, todo_gui.HEIGHT)
        # Click on the new-todo input: the form is filled with the mapped pixel coordinates.
        picture = pane.query_one("#picture")
        columns, rows = picture.size.width, picture.size.height
        x0, y0, x1, y1 = todo_gui.INPUT
        cell = (
            int((x0 + x1) / 2 * columns / todo_gui.WIDTH),
            int((y0 + y1) / 2 * rows / todo_gui.HEIGHT),
        )
        expected = images.cell_to_pixel(cell, (columns, rows), pane.image.picture.size)
        assert todo_gui.inside(todo_gui.INPUT, *expected)
        await pilot.click("#screenshot-pane #picture", offset=cell)
        await wait_for(pilot, lambda: app.tool_panel.tool.name == "computer")
        await pilot.pause()
        assert app.tool_panel.arguments() == {"action": "left_click", "coordinate": list(expected)}
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.entries[-1].arguments.get("action") == "left_click")
        await wait_idle(pilot)
        assert app.entries[-1].arguments["coordinate"] == list(expected)
        assert "focused the new-todo field" in app.entries[-1].result.text()
        before = pane.image.data
        # Typing mode: printable keys go out as one `type`, enter as a `key` Return.
        await pilot.press("ctrl+t")
        await pilot.press(*"milk", "enter")
        await wait_for(pilot, lambda: any(e.arguments.get("text") == "Return" for e in app.entries))
        await wait_idle(pilot)
        sent = [e.arguments for e in app.entries if e.tool == "computer"][-2:]
        assert sent == [{"action": "type", "text": "milk"}, {"action": "key", "text": "Return"}]
        assert pane.image.data != before, "the pane shows the screenshot the tool returned"
        await pilot.press("escape")
        state = await call(pilot, "app_state")
        assert "milk" in todo_titles(state)


async def test_desktop_todo_live_mode_acts_on_click(local_host):
    app = FleetTuiApp(target(local_host, "desktop-todo"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        before = todo_titles(await call(pilot, "app_state"))
        pane = app.screenshot_pane
        await pilot.press("ctrl+l")
        assert pane.live
        picture = pane.query_one("#picture")
        # The "done" filter button, then check the app state changed.
        cell = cell_inside(todo_gui.FILTERS["done"], (picture.size.width, picture.size.height))
        count = len(app.entries)
        await pilot.click("#screenshot-pane #picture", offset=cell)
        await wait_for(pilot, lambda: len(app.entries) > count)
        await wait_idle(pilot)
        assert app.entries[count].arguments["action"] == "left_click"
        assert "showing done" in app.entries[count].result.text()
        state = await call(pilot, "app_state")
        assert state.result.structured["ui"]["filter"] == "done"
        assert todo_titles(state) == before
        # Full screen: a click there acts like one on the pane (live: sent at once).
        pane.focus()
        await pilot.press("f")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ImageScreen")
        full = app.screen.query_one("#picture")
        cell = cell_inside(todo_gui.FILTERS["all"], (full.size.width, full.size.height))
        count = len(app.entries)
        await pilot.click("#picture", offset=cell)
        await wait_for(pilot, lambda: len(app.entries) > count)
        await wait_idle(pilot)
        assert type(app.screen).__name__ != "ImageScreen"
        assert "showing all" in app.entries[count].result.text()


async def test_keep_leaves_the_instance_and_says_how_to_attach(local_host, instances):
    import httpx

    kept = target(local_host, "tracker").model_copy(update={"keep": True})
    app = FleetTuiApp(kept)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        instance = app.env.info.instance_id
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, timeout=30)
    try:
        assert instance in instances()
        assert app.keep_note == [
            f"Instance {instance} is still running (--keep).",
            f"Attach again with: fleet-tui --instance {instance} --base-url {local_host.base_url}",
        ]
    finally:
        httpx.delete(f"{local_host.base_url}/v1/env/instances/{instance}", timeout=10)


async def test_unknown_env_key_shows_a_banner_and_the_app_stays_up(local_host):
    app = FleetTuiApp(target(local_host, "no-such-env"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.banner.shown, timeout=30)
        assert "no-such-env" in app.banner.message and app.banner.action == "reconnect"
        assert app.connection_state == "disconnected" and app.is_running
