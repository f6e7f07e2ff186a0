"""Big results benchmark: the cost of recording a 1 MB call, and a 10 MB result in the app.

Run: .venv/bin/python bench/bench_results.py [--runs 15] [--app-runs 5]
Against the test suite's `beta` MCP server (its `big` tool: `kib` KiB of text, sent as text and
as structured content), in this process:
- 1 MB call: the mcp SDK's `ClientSession.call_tool` alone; fleet-tui's MCP env; a session on
  the same target recorded to a session file (a controller given a recorder), the way the app
  records. Interleaved, medians.
  Goal: recorded / raw SDK <= 1.1.
- 10 MB result in the app (headless, recorded), `--app-runs` times: the longest the event loop
  stalled (a task that sleeps 5 ms and notes how late it wakes) from pressing ctrl+s until the
  result is shown, and that time. Goals: stall median <= 50 ms and max <= 80 ms, shown <= 1 s
  (median).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import start_mcp_server  # noqa: E402
from fleet_tui.controller import SessionController  # noqa: E402
from fleet_tui.envs.factory import make_env  # noqa: E402
from fleet_tui.envs.targets import McpTarget  # noqa: E402
from fleet_tui.session.recorder import SessionRecorder  # noqa: E402

RECORDING_GOAL = 1.1
STALL_GOAL_S = 0.050
STALL_MAX_GOAL_S = 0.080
SHOWN_GOAL_S = 1.0


async def one_megabyte_calls(url: str, runs: int, folder: Path) -> dict[str, float]:
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from fleet_tui.envs.mcp_http import MAX_REPLY_BYTES

    arguments = {"kib": 1024}
    plain = make_env(McpTarget(urls=[url]))
    recorder = SessionRecorder(folder / "bench.jsonl")
    recorded = SessionController(McpTarget(urls=[url]), recorder=recorder)
    await plain.connect()
    await recorded.connect()
    times: dict[str, list[float]] = {"raw SDK": [], "fleet-tui": [], "fleet-tui recording": []}
    async with (
        streamable_http_client(url, max_sse_event_size=MAX_REPLY_BYTES) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        calls = {
            "raw SDK": lambda: session.call_tool("big", arguments),
            "fleet-tui": lambda: plain.call_tool("big", arguments),
            "fleet-tui recording": lambda: recorded.call(recorded.add_record("big", arguments)),
        }
        for _ in range(runs + 1):  # the first round warms up
            for name, call in calls.items():
                started = time.perf_counter()
                await call()
                if name == "fleet-tui recording":
                    recorder.flush()  # the file is written: the recording's whole cost
                times[name].append(time.perf_counter() - started)
    await plain.close()
    await recorded.close()
    recorder.close()
    return {name: statistics.median(samples[1:]) for name, samples in times.items()}


async def ten_megabytes_in_the_app(url: str, folder: Path) -> tuple[float, float]:
    """(longest event-loop stall, seconds until shown) for one 10 MB result."""
    from fleet_tui.ui import images

    images.choose_backend("halfcell")
    from fleet_tui.ui.app import FleetTuiApp
    from tests.app_driver import SIZE, wait_connected, wait_for

    recorder = SessionRecorder(folder / "app.jsonl")
    app = FleetTuiApp(McpTarget(urls=[url]), recorder=recorder)
    longest = 0.0
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)

        async def watch_the_loop() -> None:
            nonlocal longest
            while True:
                started = time.perf_counter()
                await asyncio.sleep(0.005)
                longest = max(longest, time.perf_counter() - started - 0.005)

        await app.show_tool("big", {"kib": 10 * 1024})
        await pilot.pause()
        watcher = asyncio.create_task(watch_the_loop())
        started = time.perf_counter()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.controller.records and app.controller.records[-1].result)
        await wait_for(pilot, lambda: not app.call_running, timeout=60)
        await pilot.pause()
        shown = time.perf_counter() - started
        watcher.cancel()
    recorder.close()
    return longest, shown


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--app-runs", type=int, default=5)
    args = parser.parse_args()
    server, url = start_mcp_server("beta")
    try:
        with tempfile.TemporaryDirectory() as folder:
            medians = asyncio.run(one_megabyte_calls(url, args.runs, Path(folder)))
            in_app = [
                asyncio.run(ten_megabytes_in_the_app(url, Path(folder)))
                for _ in range(args.app_runs)
            ]
    finally:
        server.kill()
    raw = medians["raw SDK"]
    for name, seconds in medians.items():
        print(f"1 MB call, {name}: {seconds * 1000:.0f} ms = {seconds / raw:.2f}x the raw SDK")
    ratio = medians["fleet-tui recording"] / raw
    met = "met" if ratio <= RECORDING_GOAL else "NOT met"
    print(f"  recorded / raw SDK: {ratio:.2f}x (goal <= {RECORDING_GOAL}x: {met})")
    stalls = [stall for stall, _ in in_app]
    stall, most = statistics.median(stalls), max(stalls)
    met = "met" if stall <= STALL_GOAL_S and most <= STALL_MAX_GOAL_S else "NOT met"
    print(
        f"10 MB result in the app, {len(in_app)} runs: longest event-loop stall median "
        f"{stall * 1000:.0f} ms, max {most * 1000:.0f} ms (goal <= {STALL_GOAL_S * 1000:.0f}"
        f" / {STALL_MAX_GOAL_S * 1000:.0f} ms: {met})"
    )
    shown = statistics.median(shown for _, shown in in_app)
    met = "met" if shown <= SHOWN_GOAL_S else "NOT met"
    print(f"  shown after {shown * 1000:.0f} ms (goal <= {SHOWN_GOAL_S * 1000:.0f} ms: {met})")


if __name__ == "__main__":
    main()
