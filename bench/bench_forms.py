"""Time to build the form model, and to show the ToolForm for wide schemas in a running app.

Run: python bench/bench_forms.py   (prints a table; numbers are for this machine, one run)

"show form" is what selecting a tool costs: from mounting a ToolForm into a running app to the
form being laid out and painted (medians of RUNS). The baseline is the same form with field
previews turned off, every field built as real widgets from the start, measured in the same
run; the ratio is what to compare across machines.
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

from fleet_tui.forms import build_form
from fleet_tui.ui.widgets import form_fields
from fleet_tui.ui.widgets.tool_form import ToolForm

SIZES = (20, 200, 1000)
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
    """Build every field as real widgets (the baseline)."""
    previewable = form_fields.FieldWidget.previewable
    form_fields.FieldWidget.previewable = lambda self: False  # type: ignore[method-assign]
    try:
        yield
    finally:
        form_fields.FieldWidget.previewable = previewable  # type: ignore[method-assign]


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


if __name__ == "__main__":
    asyncio.run(main())
