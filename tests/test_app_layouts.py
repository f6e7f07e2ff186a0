"""The app changes widgets in place: a small call lays the screen out at most once or twice,
not once for every widget it changes (regressions show here as a higher count)."""

from __future__ import annotations

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.filter_input import FilterInput
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for, wait_idle
from tests.layout_count import counting_layouts

SMALL_CALL_LAYOUTS = 2
"""A small call's result in the result view, and its timing table in a tab not shown (a
hidden widget that was never laid out has no size to compare with)."""


async def test_a_small_call_lays_the_screen_out_at_most_twice(two_servers, monkeypatch):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        rendered = app.query_one("#rendered")
        shown_first = list(rendered.children)
        await app.show_tool("echo", {"text": "second"})
        await pilot.pause()
        with counting_layouts(monkeypatch) as layouts:
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: len(app.controller.records) == 2)
            await wait_idle(pilot)
        assert "second" in rendered_text(app)
        assert list(rendered.children) == shown_first, "the result's widgets are kept"
        assert layouts.full <= SMALL_CALL_LAYOUTS


FILTER_KEYS_LAYOUTS = 1
"""Six keys in the tool filter: the list takes new rows and the filter new text in boxes that
keep their size (a scroll bar that appears or goes would be one more)."""


async def test_filter_keys_lay_the_screen_out_at_most_once(two_servers, monkeypatch):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.tool_list.focus_filter()
        await pilot.pause()
        with counting_layouts(monkeypatch) as layouts:
            for key in ["e", "c", "h", "backspace", "backspace", "backspace"]:
                await pilot.press(key)
                await pilot.pause()
        assert app.tool_list.query_one(FilterInput).value == ""
        assert layouts.full <= FILTER_KEYS_LAYOUTS
