"""Time to build the form model and to mount the ToolForm widget for wide schemas.

Run: python bench/bench_forms.py   (prints a table; numbers are for this machine, one run)
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual.app import App, ComposeResult

from fleet_tui.forms import build_form
from fleet_tui.ui.widgets.tool_form import ToolForm

SIZES = (20, 200, 1000)


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


class _Host(App):
    def __init__(self, schema: dict[str, Any]) -> None:
        super().__init__()
        self.schema = schema

    def compose(self) -> ComposeResult:
        yield ToolForm(self.schema)


async def time_mount(schema: dict[str, Any], repeat: int = 3) -> tuple[float, int]:
    """Seconds from app start to the form being mounted and laid out (best of `repeat`), and
    the number of widgets on screen."""
    best, widgets = float("inf"), 0
    for _ in range(repeat):
        app = _Host(schema)
        start = time.perf_counter()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            best = min(best, time.perf_counter() - start)
            widgets = len(list(app.query("*")))
    return best, widgets


async def main() -> None:
    baseline, _ = await time_mount({"type": "object", "properties": {}})
    print(f"app start with an empty form: {baseline * 1000:.0f} ms (subtracted below)\n")
    print(f"{'properties':>10} | {'build model':>12} | {'mount widget':>12} | {'widgets':>8}")
    print(f"{'-' * 10}-+-{'-' * 12}-+-{'-' * 12}-+-{'-' * 8}")
    for size in SIZES:
        schema = wide_schema(size)
        build = time_build(schema)
        mount, widgets = await time_mount(schema)
        print(
            f"{size:>10} | {build * 1000:>9.1f} ms | {(mount - baseline) * 1000:>9.0f} ms"
            f" | {widgets:>8}"
        )


if __name__ == "__main__":
    asyncio.run(main())
