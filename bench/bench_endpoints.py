"""Many endpoints benchmark: a union over 4 and 16 MCP endpoints against the slowest alone.

Run: .venv/bin/python bench/bench_endpoints.py [--runs 5]
Starts 16 of the test suite's `alpha` MCP servers, each in its own process, then in this
process times `McpUnion` connect + list + close: over each endpoint alone, and over the first
4 and all 16 together. A fresh union each time (new connections; the process is warm, as the
app is after its first connect). Runs interleaved, medians; the goal is for 16 endpoints to
cost at most 1.2x the slowest endpoint alone.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import start_mcp_server  # noqa: E402
from fleet_tui.envs.mcp_union import McpUnion  # noqa: E402

ENDPOINTS = 16
GOAL = 1.2


async def union_seconds(urls: list[str]) -> float:
    started = time.perf_counter()
    union = McpUnion(urls)
    try:
        await union.connect()
        await union.list_tools()
    finally:
        await union.close()
    return time.perf_counter() - started


async def measure(urls: list[str], runs: int) -> tuple[float, float, float]:
    """Medians: the slowest endpoint alone, the first 4 together, all together."""
    await union_seconds(urls)  # warm-up: imports, the first connections
    alone: dict[str, list[float]] = {url: [] for url in urls}
    four, every = [], []
    for _ in range(runs):
        for url in urls:
            alone[url].append(await union_seconds([url]))
        four.append(await union_seconds(urls[:4]))
        every.append(await union_seconds(urls))
    slowest = max(statistics.median(times) for times in alone.values())
    return slowest, statistics.median(four), statistics.median(every)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    servers = [start_mcp_server("alpha") for _ in range(ENDPOINTS)]
    try:
        slowest, four, every = asyncio.run(measure([url for _, url in servers], runs))
    finally:
        for server, _ in servers:
            server.kill()
    print(f"slowest endpoint alone: {slowest * 1000:.0f} ms (connect + list + close)")
    print(f"4 endpoints: {four * 1000:.0f} ms = {four / slowest:.2f}x the slowest alone")
    met = "met" if every / slowest <= GOAL else "NOT met"
    print(
        f"{ENDPOINTS} endpoints: {every * 1000:.0f} ms = {every / slowest:.2f}x the slowest alone "
        f"(goal <= {GOAL}x: {met})"
    )


if __name__ == "__main__":
    main()
