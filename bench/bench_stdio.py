"""How long one large reply over stdio takes: fleet-tui's stdio transport against the mcp
SDK's `stdio_client`, the same server (tests/fixtures/raw_stdio.py) and the same call.

    python bench/bench_stdio.py [--mb 10 40] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVER = [sys.executable, str(ROOT / "tests" / "fixtures" / "raw_stdio.py")]


async def fleet_tui_call(size: int) -> float:
    from fleet_tui.envs.mcp_union import McpUnion

    union = McpUnion([], stdio=[shlex.join(SERVER)])
    await union.connect()
    try:
        started = time.perf_counter()
        result = await union.call_tool("sized", {"bytes": size})
        elapsed = time.perf_counter() - started
    finally:
        await union.close()
    assert len(result.text()) == size, result.text()[:200]
    return elapsed


async def sdk_call(size: int) -> float:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    server = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        started = time.perf_counter()
        result = await session.call_tool("sized", {"bytes": size})
        elapsed = time.perf_counter() - started
    assert len(result.content[0].text) == size
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, nargs="+", default=[10, 40])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| reply | fleet-tui (median s) | mcp SDK stdio_client (median s) |")
    print("| --- | --- | --- |")
    for mb in args.mb:
        size = mb * 2**20
        ours = [asyncio.run(fleet_tui_call(size)) for _ in range(args.runs)]
        theirs = [asyncio.run(sdk_call(size)) for _ in range(args.runs)]
        print(f"| {mb} MB | {statistics.median(ours):.2f} | {statistics.median(theirs):.2f} |")


if __name__ == "__main__":
    main()
