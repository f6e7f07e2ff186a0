"""What a call repaints, and when: a new result title repaints the result view's top border row
alone (not the whole view); while a call is out the screen is not painted, up to a bound, so a
fast call's "running" state and its result go to the terminal in one frame; a slower call's
"running" state is painted while it is out."""

from __future__ import annotations

from textual.geometry import Region

from fleet_tui.controller import CallStatus
from fleet_tui.ui import calls
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.result_view import ResultView
from tests.app_driver import SIZE, call, screen_text, wait_connected, wait_for, wait_idle


def count_frames(app: FleetTuiApp) -> list[CallStatus]:
    """Note, at each frame the app sends to the terminal, the status of its newest call."""
    statuses: list[CallStatus] = []
    display = app._display

    def noted(screen, update) -> None:
        display(screen, update)
        if update is not None and app.controller.records:
            statuses.append(app.controller.records[-1].status)

    app._display = noted  # type: ignore[method-assign]
    return statuses


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


async def test_a_call_faster_than_the_hold_is_painted_once_it_is_done(two_servers, monkeypatch):
    """With a hold longer than the call, no frame is painted while it is out; the result is
    painted as soon as it is shown."""
    monkeypatch.setattr(calls, "PAINTS_HELD_S", 60.0)
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "first"})
        frames = count_frames(app)
        record = await call(pilot, "slow_count", {"seconds": 0.5})
        assert record.status == CallStatus.OK
        await wait_for(pilot, lambda: CallStatus.OK in frames, timeout=10)
        assert CallStatus.RUNNING not in frames


async def test_a_slower_call_is_painted_running_while_it_is_out(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        frames = count_frames(app)
        await app.show_tool("slow_count", {"seconds": 2})
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: CallStatus.RUNNING in frames, timeout=10)
        assert app.call_running
        await wait_idle(pilot)
