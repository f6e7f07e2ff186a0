"""Tool listing benchmark: listing 1000 and 10 000 tools against the mcp SDK, and the app
showing them all.

Run: .venv/bin/python bench/bench_listing.py [--runs 5]
Serves COUNT tools from `bench/many_tools.py` in its own process (its CPU time is not counted).
Listing: in this process, one connected `McpUnion` lists again (`list_tools(refresh=True)`:
tools/list over HTTP to fleet-tui's `Tool`s) against one connected mcp SDK `ClientSession`
calling `list_tools()`; runs interleaved, medians of this process's CPU time and of wall time.
Goal: fleet-tui's CPU time at most 1.0x the SDK's at 1000 tools.
All tools shown: `fleet-tui --mcp URL` in a 120x36 pseudo-terminal (as `bench_startup.py`
runs it), from its first frame until the tool list counts all COUNT tools. Goals: at most
0.2 s after the first frame at 1000 tools, 1 s at 10 000. The same against a server of 2 tools
is the part that does not grow with the list (connecting, most of it the mcp SDK's import).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import byte_compile_fleet_tui  # noqa: E402
from bench.bench_startup import FIRST_FRAME_MARKER, spawn_until  # noqa: E402
from fleet_tui.envs.mcp_union import McpUnion  # noqa: E402

COUNTS = (1000, 10_000)
LISTING_CPU_GOAL = 1.0
SHOWN_GOALS_S = {1000: 0.2, 10_000: 1.0}
"""Seconds after the first frame by which every tool is listed in the app."""


def start_server(count: int) -> tuple[subprocess.Popen, str]:
    """`bench/many_tools.py` serving `count` tools in its own process, and its URL."""
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "many_tools.py"), str(count)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        server.kill()
        raise SystemExit(f"the many-tools server did not start: {url!r}")
    return server, url


async def timed(listing: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """CPU and wall seconds of one listing, started with no garbage left to collect (so
    that each listing pays for the collections its own garbage causes)."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    await listing()
    return time.process_time() - cpu, time.perf_counter() - wall


async def listing_rows(url: str, count: int, runs: int) -> dict[str, tuple[float, float]]:
    """Medians (CPU, wall) of listing `count` tools: fleet-tui's union and the mcp SDK."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    union = McpUnion([url])
    await union.connect()
    async with (
        create_mcp_http_client() as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()

        async def fleet_tui() -> None:
            tools = await union.list_tools(refresh=True)
            assert len(tools) == count

        kept: list[object] = []

        async def sdk() -> None:
            """Keeps its listing until the next one, as a client does (as the union does)."""
            listed = await session.list_tools()
            assert len(listed.tools) == count
            kept[:] = listed.tools

        kinds = {"fleet-tui": fleet_tui, "mcp SDK": sdk}
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in kinds}
        for run in kinds.values():
            await run()  # warm-up
        for _ in range(runs):
            for name, run in kinds.items():
                samples[name].append(await timed(run))
    await union.close()
    return {
        name: (statistics.median(s[0] for s in rows), statistics.median(s[1] for s in rows))
        for name, rows in samples.items()
    }


def shown_after_first_frame(url: str, count: int, runs: int) -> float:
    """Median seconds from the app's first frame until its tool list counts all tools."""
    app = [sys.executable, "-m", "fleet_tui", "--mcp", url, "--no-record"]
    every_tool = f"{count}/{count} tools".encode()
    gaps = []
    for _ in range(runs):
        first, shown = spawn_until(app, [FIRST_FRAME_MARKER, every_tool])
        gaps.append(shown - first)
    return statistics.median(gaps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    byte_compile_fleet_tui()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    server, url = start_server(2)
    try:
        floor = shown_after_first_frame(url, 2, max(1, runs // 2 + 1))
    finally:
        server.kill()
        server.wait()
    print(f"2 tools shown in the app: {floor * 1000:.0f} ms after the first frame (connecting)")
    for count in COUNTS:
        server, url = start_server(count)
        try:
            rows = asyncio.run(listing_rows(url, count, runs))
            shown = shown_after_first_frame(url, count, max(1, runs // 2 + 1))
        finally:
            server.kill()
            server.wait()
        (ours_cpu, ours_wall), (sdk_cpu, sdk_wall) = rows["fleet-tui"], rows["mcp SDK"]
        ratio = ours_cpu / sdk_cpu
        met = "met" if ratio <= LISTING_CPU_GOAL else "NOT met"
        goal = f" (goal <= {LISTING_CPU_GOAL:.1f}x: {met})"
        print(
            f"listing {count} tools: fleet-tui CPU {ours_cpu * 1000:.0f} ms, wall "
            f"{ours_wall * 1000:.0f} ms; mcp SDK CPU {sdk_cpu * 1000:.0f} ms, wall "
            f"{sdk_wall * 1000:.0f} ms; CPU {ratio:.2f}x, wall {ours_wall / sdk_wall:.2f}x"
            + (goal if count == 1000 else "")
        )
        limit = SHOWN_GOALS_S[count]
        print(
            f"all {count} tools shown in the app: {shown * 1000:.0f} ms after the first frame "
            f"(goal <= {limit * 1000:.0f} ms: {'met' if shown <= limit else 'NOT met'}), "
            f"{(shown - floor) * 1000:.0f} ms more than 2 tools"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
