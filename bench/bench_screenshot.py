"""Screenshot benchmark: a computer-use screenshot shown by both the result view and the
screenshot pane, as after every computer action.

Run: .venv/bin/python bench/bench_screenshot.py [--runs 5]
Headless Textual, half-cell images. A 1280x800 PNG of the bundled todo app, as a tool result,
shown first in a fresh app ("first") and after the screenshot of the action before ("next"):
timed from the result's arrival (planned in a thread, as the app does) until the screen update
that shows both views' decoded pictures has gone to the terminal (the last update before the
app is idle again; waiting for idle itself is not counted). Textual paints up to as often as
the app command asks (`fleet_tui.ui.loading.paint_up_to_fps`). Medians; goal: at most 40 ms
(the issue's "action to updated screenshot, minus the raw call").
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fleet_tui.ui.loading import paint_up_to_fps

paint_up_to_fps()  # as the app command does, before textual is imported

from fleet_tui.envs.base import ImageBlock, ToolResult  # noqa: E402
from fleet_tui.local.envs import todo_gui  # noqa: E402
from fleet_tui.ui import images  # noqa: E402

images.choose_backend("halfcell")

from bench.bench_ui import Bench, paint  # noqa: E402
from fleet_tui.ui.result_format import plan_result  # noqa: E402
from fleet_tui.ui.widgets.image_view import ImageView  # noqa: E402
from fleet_tui.ui.widgets.in_place import PaintsShownWidgets  # noqa: E402
from fleet_tui.ui.widgets.result_view import ResultView  # noqa: E402
from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane  # noqa: E402

SIZE = (120, 36)
GOAL_S = 0.040


class ScreenshotBench(Bench):
    """Paints as the app's main screen does: repaints of widgets not displayed (the result
    view's Raw and Timing tabs) are left out."""

    def get_default_screen(self) -> PaintsShownWidgets:
        return PaintsShownWidgets()


def screenshot(index: int) -> bytes:
    todos = [todo_gui.Todo(i, f"Todo {i} of run {index}", i % 3 == 0) for i in range(8)]
    return todo_gui.render(todos, todo_gui.Ui())


async def both_views(png: bytes, previous: bytes | None) -> float:
    """Seconds from `png`'s arrival to the frame that shows it in both views; `previous`, when
    given, is shown in both first (the screenshot of the action before)."""
    app = ScreenshotBench()
    frames: list[float] = []  # when each screen update went to the (headless) terminal
    display = app._display

    def timed_display(screen, update) -> None:
        display(screen, update)
        if update is not None:
            frames.append(time.perf_counter())

    app._display = timed_display
    async with app.run_test(size=SIZE) as pilot:
        await paint(pilot)
        if previous is not None:
            await show_in_both(pilot, previous)
        started = time.perf_counter()
        await show_in_both(pilot, png)
        return frames[-1] - started


async def show_in_both(pilot, png: bytes) -> None:
    """Show `png` as a tool result in the result view and the screenshot pane, as the app does,
    and wait until both have drawn it and nothing is left to paint."""
    app = pilot.app
    result = ToolResult(blocks=[ImageBlock(data=png)])
    view, pane = app.query_one(ResultView), app.query_one(ScreenshotPane)
    plan = await asyncio.to_thread(plan_result, result, None, "computer")
    await view.show(plan)
    pane.show(result.blocks[0].data, "image/png")
    shown = [v for v in app.query(ImageView) if v.display]
    while not all(v.data is png and v.picture is not None for v in shown):
        await asyncio.sleep(0.001)
    await paint(pilot)  # settles: nothing is left to draw


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    for label, after_another in (("first", False), ("next", True)):
        times = [
            await both_views(screenshot(index), screenshot(index - 1) if after_another else None)
            for index in range(1, runs + 2)
        ][1:]
        median = statistics.median(times)
        met = "met" if median <= GOAL_S else "NOT met"
        print(
            f"{label} screenshot 1280x800 in the result view and the pane: "
            f"{median * 1000:.0f} ms (goal <= {GOAL_S * 1000:.0f} ms: {met})"
        )


if __name__ == "__main__":
    asyncio.run(main())
