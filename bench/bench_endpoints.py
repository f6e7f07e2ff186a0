"""Many endpoints benchmark: a union over 4 and 16 MCP endpoints against the slowest alone,
and against the mcp SDK alone doing the same connects in parallel (the floor).

Run: .venv/bin/python bench/bench_endpoints.py [--runs 5]
Starts 16 of the test suite's `alpha` MCP servers, each in its own process, then in this
process times `McpUnion` connect + list + close: over each endpoint alone, and over the first
4 and all 16 together. A fresh union each time (new connections; the process is warm, as the
app is after its first connect). The floor is the raw mcp SDK: `asyncio.gather` of one
`streamable_http_client` + `ClientSession` (initialize, tools/list, close) per endpoint, all
over one shared httpx2 client made before timing (no CA bundle loaded per endpoint: the
cheapest the SDK can do it). For each run it also records the CPU time this process and the
16 server processes spent (from /proc): on a machine with few cores the servers' own CPU time
bounds how fast 16 endpoints can answer at all. Runs interleaved, medians; the goal is for 16
endpoints to cost at most 1.2x the slowest endpoint alone.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import start_mcp_server  # noqa: E402
from fleet_tui.envs import mcp_preload  # noqa: E402
from fleet_tui.envs.mcp_union import McpUnion  # noqa: E402

ENDPOINTS = 16
GOAL = 1.2
Sample = tuple[float, float, float]
"""One run: wall seconds, this process's CPU seconds, the servers' CPU seconds."""


async def union_round(urls: list[str]) -> None:
    union = McpUnion(urls)
    try:
        await union.connect()
        await union.list_tools()
    finally:
        await union.close()


def sdk_round(client: object) -> Callable[[list[str]], Awaitable[None]]:
    """The floor: the mcp SDK alone, every endpoint at once over one shared httpx2 client."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def one(url: str) -> None:
        async with (
            streamable_http_client(url, http_client=client) as (read, write),  # type: ignore[arg-type]
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.list_tools()

    async def every(urls: list[str]) -> None:
        await asyncio.gather(*(one(url) for url in urls))

    return every


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time the processes `pids` have used so far."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


async def sample(run: Callable[[list[str]], Awaitable[None]], urls: list[str], pids: list[int]):
    servers, own, started = cpu_seconds(pids), time.process_time(), time.perf_counter()
    await run(urls)
    wall = time.perf_counter() - started
    return wall, time.process_time() - own, cpu_seconds(pids) - servers


def medians(samples: list[Sample]) -> Sample:
    wall, own, servers = (statistics.median(column) for column in zip(*samples, strict=True))
    return wall, own, servers


async def measure(urls: list[str], pids: list[int], runs: int) -> dict[str, Sample]:
    """Medians per row: each kind alone (slowest endpoint), first 4, all, for both clients."""
    from mcp.shared._httpx_utils import create_mcp_http_client

    mcp_preload.load()
    async with create_mcp_http_client() as client:
        kinds = {"fleet-tui": union_round, "mcp SDK": sdk_round(client)}
        for run in kinds.values():
            await run(urls)  # warm-up: imports, the first connections
        rows: dict[str, list[Sample]] = {}
        alone: dict[tuple[str, str], list[Sample]] = {}
        for _ in range(runs):
            for name, run in kinds.items():
                for url in urls:
                    alone.setdefault((name, url), []).append(await sample(run, [url], pids))
                rows.setdefault(f"{name} 4", []).append(await sample(run, urls[:4], pids))
                rows.setdefault(f"{name} {ENDPOINTS}", []).append(await sample(run, urls, pids))
    result = {row: medians(samples) for row, samples in rows.items()}
    for name in kinds:
        singles = [medians(samples) for (kind, _), samples in alone.items() if kind == name]
        result[f"{name} 1"] = max(singles)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    servers = [start_mcp_server("alpha") for _ in range(ENDPOINTS)]
    pids = [server.pid for server, _ in servers]
    load = os.getloadavg()[0]
    try:
        rows = asyncio.run(measure([url for _, url in servers], pids, runs))
    finally:
        for server, _ in servers:
            server.kill()
    print(f"{os.cpu_count()} cores, load average {load:.1f} at the start; medians of {runs} runs")
    for name in ("fleet-tui", "mcp SDK"):
        for count, label in ((1, "slowest alone"), (4, "4 endpoints"), (ENDPOINTS, "16 endpoints")):
            wall, own, cpu = rows[f"{name} {count}"]
            print(
                f"  {name + ', ' + label:<28} wall {wall * 1000:4.0f} ms   own CPU "
                f"{own * 1000:4.0f} ms   servers' CPU {cpu * 1000:4.0f} ms"
            )
    slowest, four, every = (rows[f"fleet-tui {n}"][0] for n in (1, 4, ENDPOINTS))
    floor_alone, floor_every = rows["mcp SDK 1"][0], rows[f"mcp SDK {ENDPOINTS}"][0]
    servers_cpu = rows[f"fleet-tui {ENDPOINTS}"][2]
    met = "met" if every / slowest <= GOAL else "NOT met"
    print(f"4 endpoints: {four / slowest:.2f}x the slowest alone")
    print(
        f"{ENDPOINTS} endpoints: {every * 1000:.0f} ms = {every / slowest:.2f}x the slowest alone "
        f"(goal <= {GOAL}x: {met})"
    )
    print(
        f"mcp SDK alone, {ENDPOINTS} at once: {floor_every / floor_alone:.2f}x its slowest alone; "
        f"fleet-tui / mcp SDK at {ENDPOINTS}: {every / floor_every:.2f}x"
    )
    own, sdk_own = rows[f"fleet-tui {ENDPOINTS}"][1], rows[f"mcp SDK {ENDPOINTS}"][1]
    print(
        f"this process's CPU time at {ENDPOINTS} (one core: Python runs one thread at a time): "
        f"fleet-tui {own / slowest:.2f}x, mcp SDK {sdk_own / slowest:.2f}x the slowest alone"
    )
    bound = servers_cpu / (os.cpu_count() or 1)
    print(
        f"the {ENDPOINTS} servers' own CPU time alone, spread over every core: "
        f"{bound * 1000:.0f} ms = {bound / slowest:.2f}x the slowest alone"
    )


if __name__ == "__main__":
    main()
