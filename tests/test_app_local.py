"""The app on the embedded local Fleet host: the tracker (tool use) and desktop-todo (computer use).

The real fleet-python SDK provisions instances on the session's local host; the app drives them.
"""

from __future__ import annotations

import json

from fleet_tui.local.envs import todo_gui
from fleet_tui.ui import images
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, local_target, wait_connected, wait_for, wait_idle


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


async def test_desktop_todo_screenshot_click_and_typing(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
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
        await wait_for(
            pilot, lambda: app.controller.records[-1].arguments.get("action") == "left_click"
        )
        await wait_idle(pilot)
        assert app.controller.records[-1].arguments["coordinate"] == list(expected)
        assert "focused the new-todo field" in app.controller.records[-1].result.text()
        before = pane.image.data
        # Typing mode: printable keys go out as one `type`, enter as a `key` Return.
        await pilot.press("ctrl+t")
        await pilot.press(*"milk", "enter")
        await wait_for(
            pilot, lambda: any(e.arguments.get("text") == "Return" for e in app.controller.records)
        )
        await wait_idle(pilot)
        sent = [e.arguments for e in app.controller.records if e.tool == "computer"][-2:]
        assert sent == [{"action": "type", "text": "milk"}, {"action": "key", "text": "Return"}]
        assert pane.image.data != before, "the pane shows the screenshot the tool returned"
        await pilot.press("escape")
        state = await call(pilot, "app_state")
        assert "milk" in todo_titles(state)


async def test_desktop_todo_live_mode_acts_on_click(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
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
        count = len(app.controller.records)
        await pilot.click("#screenshot-pane #picture", offset=cell)
        await wait_for(pilot, lambda: len(app.controller.records) > count)
        await wait_idle(pilot)
        assert app.controller.records[count].arguments["action"] == "left_click"
        assert "showing done" in app.controller.records[count].result.text()
        state = await call(pilot, "app_state")
        assert state.result.structured["ui"]["filter"] == "done"
        assert todo_titles(state) == before
        # Full screen: a click there acts like one on the pane (live: sent at once).
        pane.focus()
        await pilot.press("f")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ImageScreen")
        full = app.screen.query_one("#picture")
        cell = cell_inside(todo_gui.FILTERS["all"], (full.size.width, full.size.height))
        count = len(app.controller.records)
        await pilot.click("#picture", offset=cell)
        await wait_for(pilot, lambda: len(app.controller.records) > count)
        await wait_idle(pilot)
        assert type(app.screen).__name__ != "ImageScreen"
        assert "showing all" in app.controller.records[count].result.text()
