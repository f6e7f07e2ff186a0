"""The app changes widgets in place: a small call or a filter key lays out no more of the screen
than the widgets it changes (regressions show here as a higher count)."""

from __future__ import annotations

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.filter_input import FilterInput
from tests.app_driver import (
    SIZE,
    call,
    rendered_text,
    screen_text,
    wait_connected,
    wait_for,
    wait_idle,
)
from tests.layout_count import counting_layouts

SMALL_CALL_LAYOUTS = 0
"""A small call's result changes widgets that keep their boxes, and its timing table is in a
tab not shown (laid out when that tab is shown)."""


async def second_call_counted(pilot, monkeypatch):
    """Call `echo` a second time with ctrl+s, counting the layouts and whole-screen maps from
    the key until the result is shown and painted."""
    app = pilot.app
    await app.show_tool("echo", {"text": "second"})
    await pilot.pause()
    with counting_layouts(monkeypatch) as layouts:
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(app.controller.records) == 2)
        await wait_idle(pilot)
        await pilot.pause()
    return layouts


async def test_a_small_call_does_not_lay_the_screen_out(two_servers, monkeypatch):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        rendered = app.query_one("#rendered")
        shown_first = list(rendered.children)
        layouts = await second_call_counted(pilot, monkeypatch)
        assert "second" in rendered_text(app)
        assert list(rendered.children) == shown_first, "the result's widgets are kept"
        assert layouts.full <= SMALL_CALL_LAYOUTS


async def test_a_small_call_repaints_no_widget_hidden_in_a_tab(two_servers, monkeypatch):
    """The history (a sidebar tab not shown) and the result's other tabs take the call without
    a repaint: Textual would map the whole screen again for one."""
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        layouts = await second_call_counted(pilot, monkeypatch)
        assert "second" in rendered_text(app)
        assert layouts.whole_maps == 0


async def test_a_history_row_changed_while_hidden_is_shown_when_its_tab_is(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        await call(pilot, "echo", {"text": "second"})  # its row added with the history hidden
        app.show_sidebar_pane("pane-history")
        await pilot.pause()
        shown = screen_text(app)
        assert shown.count("echo") >= 2 and "ok" in shown


async def test_a_result_changed_in_a_hidden_tab_is_whole_when_the_tab_is_shown(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        await call(pilot, "echo", {"text": "second"})  # its timing shown in a tab not shown
        app.result_view.select_tab("timing")
        await pilot.pause()
        shown = screen_text(app)
        for label, value in app.result_view.plan.timing:
            assert label in shown and value[:30] in shown, label


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
