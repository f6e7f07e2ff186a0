"""Floods: how fast the app takes a server's log messages and progress reports next to a
headless session (the controller alone) taking the same, in the same run.

Run: .venv/bin/python bench/bench_floods.py [--count 100000]
The server is tests/fixtures/flood_server.py, a child process over stdio. The app runs headless
(Pilot) with the Log pane shown; the ratio is what to compare across machines.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fleet_tui.controller import SessionController
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected, wait_for, wait_idle

FLOOD = McpTarget(stdio=[f"{sys.executable} -m tests.fixtures.flood_server"])


async def headless_seconds(tool: str, count: int) -> float:
    controller = SessionController(FLOOD)
    await controller.connect()
    started = time.monotonic()
    await controller.call(controller.add_record(tool, {"count": count}))
    elapsed = time.monotonic() - started
    await controller.close_env()
    return elapsed


async def app_seconds(tool: str, count: int) -> float:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("f9")  # the Log pane shows what arrives
        started = time.monotonic()
        app.start_call(tool, {"count": count})
        await wait_for(pilot, lambda: app.controller.records, 60)
        await wait_idle(pilot, 3600)
        elapsed = time.monotonic() - started
        return elapsed


async def main(count: int) -> None:
    print(f"| {count:,} notifications | headless | app | app / headless |")
    print("| --- | --- | --- | --- |")
    for tool, label in (("chatter", "log messages"), ("progress", "progress reports")):
        headless = await headless_seconds(tool, count)
        shown = await app_seconds(tool, count)
        print(f"| {label} | {headless:.1f} s | {shown:.1f} s | {shown / headless:.1f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=100_000)
    asyncio.run(main(parser.parse_args().count))
