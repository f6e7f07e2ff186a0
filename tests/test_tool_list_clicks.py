"""The mouse on the tool list finds the tool drawn under it. Rows drawn once are reused wherever
their tool appears again; a row the filter moved answers for the place it is at now."""

from __future__ import annotations

from textual import events
from textual.pilot import Pilot

from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected, wait_for


async def filter_moving_rows_up(pilot: Pilot, app: FleetTuiApp) -> None:
    """Draw the full list, then filter it to rows drawn further down in it: "two" matches `big`
    and `count` by their descriptions only, so their rows look as they did, but sit higher."""
    await wait_connected(pilot)
    assert [tool.name for tool in app.tool_list.shown].index("big") == 9
    app.tool_list.focus_filter()
    await pilot.press(*"two")
    await pilot.pause()
    assert [tool.name for tool in app.tool_list.shown] == ["add", "beta/whoami", "big", "count"]


def row_offset(app: FleetTuiApp, index: int) -> tuple[int, int]:
    """Where row `index` of the tool list is, from the list's top left corner."""
    rows = app.tool_list.rows
    top = rows.content_region.y - rows.region.y
    return 2, top + rows._starts[index] - rows.scroll_offset.y


def name_drawn_on(app: FleetTuiApp, index: int) -> str:
    rows = app.tool_list.rows
    return rows.render_line(rows._starts[index] - rows.scroll_offset.y).text.split()[0]


async def test_the_row_under_the_mouse_is_hovered_after_the_filter_moved_it(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        rows = app.tool_list.rows
        await wait_connected(pilot)
        await pilot.hover(rows, offset=row_offset(app, 0))  # the mouse rests on the list
        await filter_moving_rows_up(pilot, app)
        await pilot.hover(rows, offset=row_offset(app, 2))
        assert name_drawn_on(app, 2) == "big" and rows.hovered == 2


async def test_a_quick_click_opens_the_tool_on_the_row_after_the_filter_moved_it(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await filter_moving_rows_up(pilot, app)
        # A quick click: the terminal sends the press and the release in one read, so the
        # app gets both before it draws again (the press moves the focus to the list).
        rows = app.tool_list.rows
        shown_before = app.tool_panel.tool  # the first tool, filtered out now
        x, y = rows.region.offset + row_offset(app, 2)
        for event in (events.MouseDown, events.MouseUp):
            app.post_message(event(None, x, y, 0, 0, 1, False, False, False, x, y))
        await wait_for(pilot, lambda: app.tool_panel.tool is not shown_before)
        opened = app.tool_panel.tool
        assert name_drawn_on(app, 2) == "big" and opened is not None and opened.name == "big"
