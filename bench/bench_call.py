"""In-app small call: the app's whole path for one small call against the raw SDK call.

Run: .venv/bin/python bench/bench_call.py [--runs 20]
Against the test suite's `alpha` MCP server (its `echo` tool), in this process:
- raw: the mcp SDK's `ClientSession.call_tool("echo", {"text": "hi N"})` alone;
- in the app (headless, 120x36, the echo form shown): the same call as ctrl+s makes it (after
  reading the form; a new text each time, so each result differs) until the call is done
  (its result is shown and the call worker's work returned: timed there, not when this loop
  wakes up next, which may be after the screen's paint that follows), and until the first
  screen update after the result view took the result has gone to the terminal. The
  full-screen layouts each call caused are counted too.
Textual paints up to as often as the app command asks (`fleet_tui.ui.loading.paint_up_to_fps`).
Interleaved, medians after a warm-up. Goals: done <= 1.5x raw, next frame <= 3x raw.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import start_mcp_server  # noqa: E402

DONE_GOAL = 1.5
FRAME_GOAL = 3.0


async def measure(url: str, runs: int) -> tuple[list[float], list[float], list[float], list[int]]:
    from fleet_tui.ui.loading import paint_up_to_fps

    paint_up_to_fps()  # as the app command does, before textual is imported
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from textual.screen import Screen

    from fleet_tui.envs.targets import McpTarget
    from fleet_tui.ui import images

    images.choose_backend("halfcell")
    from fleet_tui.ui.app import FleetTuiApp
    from fleet_tui.ui.calls import Calls
    from fleet_tui.ui.widgets.result_view import ResultView
    from tests.app_driver import SIZE, wait_connected, wait_for

    raw: list[float] = []
    done: list[float] = []
    frame: list[float] = []
    layouts: list[int] = []
    app = FleetTuiApp(McpTarget(urls=[url]))
    frames: list[float] = []
    display = app._display

    def timed_display(screen, update) -> None:
        display(screen, update)
        if update is not None:
            frames.append(time.perf_counter())

    app._display = timed_display
    shown: list[float] = []  # when the result view had taken the result
    view_show = ResultView.show

    async def timed_show(self, plan) -> None:
        await view_show(self, plan)
        shown.append(time.perf_counter())

    ResultView.show = timed_show
    ended: list[float] = []  # when the call worker's work returned (the worker ends with it)
    calls_work = Calls._calls

    async def timed_calls(self, record) -> None:
        await calls_work(self, record)
        ended.append(time.perf_counter())

    Calls._calls = timed_calls
    full_layouts = 0
    refresh_layout = Screen._refresh_layout

    def counted(self, size=None, scroll=False):
        nonlocal full_layouts
        full_layouts += not scroll
        return refresh_layout(self, size, scroll)

    Screen._refresh_layout = counted
    async with (
        streamable_http_client(url) as (read, write),
        ClientSession(read, write) as session,
        app.run_test(size=SIZE) as pilot,
    ):
        await session.initialize()
        await wait_connected(pilot)
        await app.show_tool("echo", {"text": "hi"})
        await pilot.pause(0.2)
        for _ in range(runs + 1):
            started = time.perf_counter()
            await session.call_tool("echo", {"text": f"hi {len(raw)}"})
            raw.append(time.perf_counter() - started)
            count = len(app.controller.records)
            await pilot.pause(0.05)
            full_layouts = 0
            shown.clear()
            ended.clear()
            started = time.perf_counter()
            app.start_call("echo", {"text": f"hi {len(done)}"})  # what ctrl+s runs, past the form
            # the call's worker has ended: its result is shown
            while len(app.controller.records) <= count or app.call_running:
                await asyncio.sleep(0.0005)
            done.append(ended[0] - started)
            while not frames or frames[-1] < shown[0]:
                await asyncio.sleep(0.0005)
            frame.append(next(t for t in frames if t >= shown[0]) - started)
            await wait_for(pilot, lambda: not app.call_running)
            await pilot.pause(0.1)
            layouts.append(full_layouts)
    Screen._refresh_layout = refresh_layout
    return raw[1:], done[1:], frame[1:], layouts[1:]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    server, url = start_mcp_server("alpha")
    try:
        raw, done, frame, layouts = asyncio.run(measure(url, runs))
    finally:
        server.kill()
    load = os.getloadavg()[0]
    base = statistics.median(raw)
    print(f"load average {load:.2f}; raw SDK call_tool: {base * 1000:.1f} ms (median)")
    for name, samples, goal in (("done", done, DONE_GOAL), ("next frame", frame, FRAME_GOAL)):
        ratio = statistics.median(samples) / base
        met = "met" if ratio <= goal else "NOT met"
        print(
            f"in-app small call until {name}: {statistics.median(samples) * 1000:.1f} ms = "
            f"{ratio:.2f}x raw (goal <= {goal}x: {met})"
        )
    print(f"full-screen layouts per call: median {statistics.median(layouts):.0f}")


if __name__ == "__main__":
    main()
