"""Memory benchmark: how much a headless session grows with its calls.

Run: .venv/bin/python bench/bench_memory.py [--calls 1000] [--screenshots 100]
In this process, a `SessionController` (what the app and the headless commands drive) against
the test suite's MCP servers, each in its own process: `--calls` calls of `alpha`'s `echo`
(a short text each), then `--screenshots` calls of the `images` server's `screenshot` (a
1280x800 PNG of about 900 KB, sent anew each time, as a computer-use env's screenshots).
The resident set size (RSS, from /proc) is read after a warm-up call and after each series,
once the garbage collector ran. Goals: +30 MiB for the calls, +20 MiB for the screenshots at most.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import start_mcp_server  # noqa: E402
from fleet_tui.controller import SessionController  # noqa: E402
from fleet_tui.envs.targets import McpTarget  # noqa: E402

CALLS_GOAL_MIB = 30
SCREENSHOTS_GOAL_MIB = 20


def rss_mib() -> float:
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def growth(url: str, tool: str, count: int, arguments) -> float:
    """RSS growth (MiB) over `count` calls of `tool`, after one warm-up call."""
    session = SessionController(McpTarget(urls=[url]))
    await session.connect()
    await session.call(session.add_record(tool, arguments(0)))
    before = rss_mib()
    for index in range(1, count + 1):
        await session.call(session.add_record(tool, arguments(index)))
    after = rss_mib()
    await session.close()
    return after - before


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--screenshots", type=int, default=100)
    options = parser.parse_args()
    alpha, alpha_url = start_mcp_server("alpha")
    images, images_url = start_mcp_server("images")
    try:
        calls = asyncio.run(
            growth(alpha_url, "echo", options.calls, lambda i: {"text": f"call {i}"})
        )
        shots = asyncio.run(
            growth(
                images_url,
                "screenshot",
                options.screenshots,
                lambda i: {"seed": i % 4},  # the server makes four, each sent anew
            )
        )
    finally:
        alpha.kill()
        images.kill()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for label, grown, count, goal in (
        (f"{options.calls} calls", calls, options.calls, CALLS_GOAL_MIB),
        (f"{options.screenshots} screenshots", shots, options.screenshots, SCREENSHOTS_GOAL_MIB),
    ):
        met = "met" if grown <= goal else "NOT met"
        print(
            f"RSS growth after {label}: +{grown:.1f} MiB ({grown * 1024 / count:.0f} KiB each; "
            f"goal <= +{goal} MiB: {met})"
        )


if __name__ == "__main__":
    main()
