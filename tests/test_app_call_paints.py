"""What a call repaints: a new result title repaints the result view's top border row alone (not
the whole view)."""

from __future__ import annotations

from textual.geometry import Region

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.result_view import ResultView
from tests.app_driver import SIZE, call, screen_text, wait_connected, wait_for, wait_idle


async def test_a_new_result_title_repaints_the_top_border_row_alone(two_servers, monkeypatch):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        await app.show_tool("echo", {"text": "second"})
        await pilot.pause()
        view = app.query_one(ResultView)
        dirtied: list[tuple[Region, ...]] = []
        set_dirty = ResultView._set_dirty

        def noted(widget: ResultView, *regions: Region) -> None:
            dirtied.append(regions)
            set_dirty(widget, *regions)

        monkeypatch.setattr(ResultView, "_set_dirty", noted)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(app.controller.records) == 2)
        await wait_idle(pilot)
        await pilot.pause()
        assert view.border_title is not None and view.border_title.startswith("#2 echo · ok")
        assert dirtied, "the new title was repainted"
        assert () not in dirtied, "no repaint of the whole result view"
        assert {r.height for regions in dirtied for r in regions} == {1}
        top_row = screen_text(app).splitlines()[view.region.y]
        assert "#2 echo · ok" in top_row, "the row as painted holds the new title"
