"""Time to build the form model, and to show the ToolForm for wide schemas.

Run: python bench/bench_forms.py   (prints two tables; numbers are for this machine, one run)

"show form" is what selecting a tool costs: from mounting a ToolForm into a running app to the
form being laid out and painted (medians of RUNS). The baseline is the same form with field
previews turned off, every field built as real widgets from the start, measured in the same
run; the ratio is what to compare across machines. The second table does the same in fleet-tui
itself, on the embedded local host's `tracker` env with wide tools added to its list.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.app import App, ComposeResult
from textual.containers import Vertical

from fleet_tui.envs.base import Env, Tool
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import FleetTarget
from fleet_tui.forms import build_form
from fleet_tui.local.runner import LocalHost, start_local_host
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.field_preview import PreviewWidget
from fleet_tui.ui.widgets.tool_form import ToolForm

SIZES = (20, 200, 1000)
APP_SIZES = (0, *SIZES)
"""In the app, `wide_0` (no arguments) is the floor: what showing any form costs."""
RUNS = 5


def wide_schema(properties: int) -> dict[str, Any]:
    """An object schema with a realistic mix of field kinds, `properties` of them."""
    shapes: list[dict[str, Any]] = [
        {"type": "string", "description": "A text field"},
        {"type": "integer", "minimum": 0},
        {"type": "number"},
        {"type": "boolean", "default": False},
        {"type": "string", "enum": ["low", "normal", "high"]},
        {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "default": None},
        {"type": "array", "items": {"type": "string"}},
        {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            "required": ["city"],
        },
    ]
    props = {f"field_{i}": shapes[i % len(shapes)] for i in range(properties)}
    return {"type": "object", "properties": props, "required": list(props)[::5]}


def time_build(schema: dict[str, Any], repeat: int = 5) -> float:
    """Seconds to build the model and compute its first value and errors (best of `repeat`)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        form = build_form(schema)
        form.value()
        form.errors()
        best = min(best, time.perf_counter() - start)
    return best


@contextmanager
def previews_off() -> Iterator[None]:
    """Build every field as real widgets from the start (the baseline)."""
    init = PreviewWidget.__init__

    def real_widgets(self: PreviewWidget, *, previewing: bool, **options: Any) -> None:
        init(self, previewing=False, **options)

    PreviewWidget.__init__ = real_widgets  # type: ignore[method-assign]
    try:
        yield
    finally:
        PreviewWidget.__init__ = init  # type: ignore[method-assign]


class _Host(App):
    def compose(self) -> ComposeResult:
        yield Vertical(id="holder")


async def time_show(schema: dict[str, Any]) -> tuple[float, int]:
    """Median seconds from mounting the form in a running app to its first paint, and the
    number of widgets it is made of."""
    app = _Host()
    times: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        holder = app.query_one("#holder")
        for _ in range(RUNS + 1):  # the first run warms up Textual's caches
            await holder.remove_children()
            await pilot.pause()
            start = time.perf_counter()
            await holder.mount(ToolForm(schema))
            await pilot.pause()
            times.append(time.perf_counter() - start)
        widgets = len(list(holder.query("*")))
    return statistics.median(times[1:]), widgets


class WithWideTools:
    """A real env whose tool list also has a tool of each size in APP_SIZES (`wide_0`...)."""

    def __init__(self, env: Env) -> None:
        self.inner = env

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        wide = [Tool(name=f"wide_{n}", input_schema=wide_schema(n)) for n in APP_SIZES]
        return [*await self.inner.list_tools(refresh), *wide]


async def time_in_app(host: LocalHost) -> dict[str, float]:
    """Median seconds from choosing each wide tool in fleet-tui to its form being painted
    (another tool is shown in between, so each choice mounts a new form)."""
    target = FleetTarget(env_key="tracker", base_url=host.base_url, api_key=host.token)
    app = FleetTuiApp(target, env_factory=lambda t: WithWideTools(make_env(t)))
    times: dict[str, list[float]] = {f"wide_{n}": [] for n in APP_SIZES}
    async with app.run_test(size=(120, 36)) as pilot:
        while not (app.controller.state == "connected" and app.controller.tools):
            await pilot.pause(0.05)
        for _ in range(RUNS + 1):
            for name in times:
                await app.show_tool("list_users")
                await pilot.pause()
                start = time.perf_counter()
                await app.show_tool(name)
                await pilot.pause()
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(runs[1:]) for name, runs in times.items()}


async def in_the_app() -> None:
    host = start_local_host()
    try:
        shown = await time_in_app(host)
        with previews_off():
            baseline = await time_in_app(host)
    finally:
        host.stop()
    print("\nin fleet-tui (choose the tool, form painted):\n")
    header = f"{'tool':>10} | {'show form':>9} | {'previews off':>12} | {'ratio':>5}"
    print(header)
    print("-" * len(header))
    for name, seconds in shown.items():
        print(
            f"{name:>10} | {seconds * 1000:>6.0f} ms | {baseline[name] * 1000:>9.0f} ms | "
            f"{seconds / baseline[name]:>5.2f}"
        )


async def main() -> None:
    empty, _ = await time_show({"type": "object", "properties": {}})
    print(f"show an empty form: {empty * 1000:.0f} ms\n")
    header = (
        f"{'properties':>10} | {'build model':>11} | {'show form':>9} | {'widgets':>7} | "
        f"{'previews off':>12} | {'widgets':>7} | {'ratio':>5}"
    )
    print(header)
    print("-" * len(header))
    for size in SIZES:
        schema = wide_schema(size)
        build = time_build(schema)
        show, widgets = await time_show(schema)
        with previews_off():
            baseline, baseline_widgets = await time_show(schema)
        print(
            f"{size:>10} | {build * 1000:>8.1f} ms | {show * 1000:>6.0f} ms | {widgets:>7} | "
            f"{baseline * 1000:>9.0f} ms | {baseline_widgets:>7} | {show / baseline:>5.2f}"
        )
    await in_the_app()


if __name__ == "__main__":
    asyncio.run(main())
