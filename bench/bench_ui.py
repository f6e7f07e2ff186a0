"""UI benchmarks: a 1 MB result's first paint and scrolling, and a screenshot's render time.

Run: .venv/bin/python bench/bench_ui.py
Headless Textual (Pilot), half-cell images. Each figure is the median of a few runs, printed
next to a baseline measured in the same run (Textual's `Log` widget for the big text), so the
ratio is what to compare across machines.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.widgets import Log

from fleet_tui.envs.base import TextBlock, ToolResult
from fleet_tui.local.envs import todo_gui
from fleet_tui.ui import images
from fleet_tui.ui.result_format import plan_result

images.choose_backend("halfcell")

from fleet_tui.ui.widgets.result_view import ResultView  # noqa: E402
from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane  # noqa: E402

SIZE = (120, 36)
RUNS = 3


def one_megabyte_json() -> str:
    rows = [
        {"id": i, "title": f"Issue number {i}", "labels": ["bug", "ui"], "open": i % 2 == 0}
        for i in range(12_000)
    ]
    text = json.dumps({"rows": rows})
    assert len(text) >= 1_000_000, len(text)
    return text


class Bench(App):
    CSS = "ResultView, Log { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield ResultView()
        yield ScreenshotPane()


async def paint(pilot) -> None:
    """Wait until the screen has been refreshed (the first paint of what was mounted)."""
    await pilot.pause()
    await pilot.app._animator.wait_until_complete()
    await pilot.pause()


async def time_result(text: str) -> tuple[float, float]:
    """Seconds to first paint of the result (formatting in a thread + mounting), and for 30
    painted page-downs."""
    result = ToolResult(blocks=[TextBlock(text=text)], size_bytes=len(text))
    app = Bench()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(ResultView)
        started = time.perf_counter()
        plan = await asyncio.to_thread(plan_result, result, None, "big")
        await view.show(plan)
        await paint(pilot)
        first = time.perf_counter() - started
        pagers = view.query("#rendered TextPager")
        scroll = await time_pages(pilot, pagers.first() if pagers else view.query_one("#rendered"))
    return first, scroll


async def time_pages(pilot, widget) -> float:
    """Seconds for 30 page-downs, each painted."""
    started = time.perf_counter()
    for _ in range(30):
        widget.scroll_page_down(animate=False)
        await pilot.pause()
    return time.perf_counter() - started


class LogBench(App):
    def compose(self) -> ComposeResult:
        yield Log()


async def time_log(text: str) -> tuple[float, float]:
    """The baseline: Textual's Log widget with the same (pretty-printed) text."""
    pretty = json.dumps(json.loads(text), indent=2)
    app = LogBench()
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(Log)
        started = time.perf_counter()
        log.write(pretty, scroll_end=False)
        await paint(pilot)
        first = time.perf_counter() - started
        scroll = await time_pages(pilot, log)
    return first, scroll


async def time_screenshot() -> float:
    """Seconds from PNG bytes to the painted half-cell screenshot (1280x800)."""
    png = todo_gui.render(
        [todo_gui.Todo(i, f"Todo {i}", i % 3 == 0) for i in range(8)], todo_gui.Ui()
    )
    app = Bench()
    async with app.run_test(size=SIZE) as pilot:
        pane = app.query_one(ScreenshotPane)
        await paint(pilot)
        started = time.perf_counter()
        pane.show(png)
        await paint(pilot)
        return time.perf_counter() - started


def median(values: list[float]) -> float:
    return statistics.median(values)


async def main() -> None:
    text = one_megabyte_json()
    ours = [await time_result(text) for _ in range(RUNS)]
    logs = [await time_log(text) for _ in range(RUNS)]
    shots = [await time_screenshot() for _ in range(RUNS)]
    first, scroll = median([o[0] for o in ours]), median([o[1] for o in ours])
    log_first, log_scroll = median([x[0] for x in logs]), median([x[1] for x in logs])
    lines = len(json.dumps(json.loads(text), indent=2).splitlines())
    print(f"1 MB JSON result ({len(text) / 1e6:.2f} MB, {lines} lines pretty-printed)")
    print(
        f"  first paint   fleet-tui {first:.2f} s   Log baseline {log_first:.2f} s   "
        f"ratio {first / log_first:.2f}"
    )
    print(
        f"  30 page-downs fleet-tui {scroll:.2f} s   Log baseline {log_scroll:.2f} s   "
        f"ratio {scroll / log_scroll:.2f}   ({scroll / 30 * 1000:.0f} ms per page)"
    )
    print(f"screenshot 1280x800 PNG -> half-cell paint: {median(shots) * 1000:.0f} ms (median)")


if __name__ == "__main__":
    asyncio.run(main())
