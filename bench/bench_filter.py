"""Tool filter benchmark: the cost of one keystroke in the tool filter at 1000 and 10 000 tools.

Run: .venv/bin/python bench/bench_filter.py [--runs 3]
Headless Textual (Pilot): the app's `ToolList` holds N tools from two endpoints; queries are
typed a key at a time (then erased with backspace), and each key is timed from the moment it is
sent until the first screen update composed after the list took the new rows (Pilot's own idle
polling is not counted). Prints the median and p95 per key against the goal, and the same keys in
a bare `Input` (the floor any filter pays) measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.widgets import Input

from fleet_tui.envs.base import Tool
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_rows import ToolRows

SIZE = (120, 40)
QUERIES = ["listiss", "create_user", "dlt", "search"]
GOALS = {1000: (8.0, 16.0), 10_000: (12.0, 24.0)}
VERBS = ["list", "get", "create", "update", "delete", "search", "sync", "archive", "export"]
NOUNS = ["issue", "user", "project", "comment", "label", "milestone", "file", "team", "report"]
WORDS = [
    "the", "a", "of", "to", "and", "in", "for", "with", "by", "from", "each", "that", "which",
    "returns", "lists", "all", "given",
]  # fmt: skip


def make_tools(count: int) -> list[Tool]:
    """`count` tools with realistic names and ~100-character descriptions, on two endpoints."""
    tools = []
    for i in range(count):
        verb, noun = VERBS[i % len(VERBS)], NOUNS[(i // len(VERBS)) % len(NOUNS)]
        words = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(16))
        tools.append(
            Tool(
                name=f"{verb}_{noun}_{i}",
                description=f"{verb.title()} a {noun}: {words}.",
                endpoint=f"http://127.0.0.1:{8000 + i % 2}/mcp",
            )
        )
    return tools


class FilterBench(App):
    def __init__(self, tools: list[Tool] | None) -> None:
        super().__init__()
        self.tools = tools
        self.waiting = True
        """Waiting for the list to take new rows (the bare Input has none to wait for)."""
        self.painted: float | None = None

    def _display(self, screen, renderable) -> None:
        super()._display(screen, renderable)
        if renderable is not None and self.painted is None and not self.waiting:
            self.painted = time.perf_counter()

    def on_tool_rows_changed(self) -> None:
        self.waiting = False

    def compose(self) -> ComposeResult:
        yield ToolList(id="tools") if self.tools is not None else Input()

    def on_mount(self) -> None:
        if self.tools is not None:
            self.query_one(ToolList).set_tools(self.tools)
            self.query_one(ToolList).focus_filter()
        else:
            self.query_one(Input).focus()


async def time_keys(tools: list[Tool] | None) -> list[float]:
    """Milliseconds per key (press to repaint) over every query, typed then erased."""
    times = []
    app = FilterBench(tools)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if tools is not None:
            watch_rows(app)
        for query in QUERIES:
            keys = [("underscore" if c == "_" else c) for c in query] + ["backspace"] * len(query)
            for key in keys:
                app.painted, app.waiting = None, tools is not None
                started = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()
                assert app.painted is not None, "no screen update after the key"
                times.append((app.painted - started) * 1000)
    return times


def watch_rows(app: FilterBench) -> None:
    """Tell the app when its list takes new rows."""
    rows = app.query_one(ToolRows)
    set_rows = rows.set_rows

    def set_rows_and_tell(*args: Any, **kwargs: Any) -> None:
        set_rows(*args, **kwargs)
        app.on_tool_rows_changed()

    rows.set_rows = set_rows_and_tell


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    for count, (goal_median, goal_p95) in GOALS.items():
        tools = make_tools(count)
        ours: list[float] = []
        floor: list[float] = []
        for _ in range(runs):  # interleaved, so both see the same machine load
            ours += await time_keys(tools)
            floor += await time_keys(None)
        median, worst = statistics.median(ours), p95(ours)
        met = "met" if median <= goal_median and worst <= goal_p95 else "NOT met"
        print(
            f"filter keystroke at {count} tools: median {median:.1f} ms, p95 {worst:.1f} ms "
            f"(goal <= {goal_median:.0f} / <= {goal_p95:.0f} ms: {met}); bare Input "
            f"{statistics.median(floor):.1f} / {p95(floor):.1f} ms, ratio "
            f"{median / statistics.median(floor):.1f}x"
        )


if __name__ == "__main__":
    asyncio.run(main())
