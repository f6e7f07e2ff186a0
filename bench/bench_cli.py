"""The headless CLI against baselines that skip fleet-tui, every command a fresh process.

Starts `fleet-tui local serve` (its printed key goes to every command as FLEET_API_KEY) and
provisions one `tracker` instance on it, starts the test suite's plain MCP servers `alpha` and
`beta` (A and B: `--mcp` sends no key, and the local host wants one), then times, interleaved
and after one warm-up run each (excluded):

1. `fleet-tui call --instance ID list_users` vs `bench/plain_mcp.py call`: one tool call with
   the mcp SDK alone, on the instance endpoint that owns the tool;
2. `fleet-tui tools --mcp A --mcp B` (both servers, joined in parallel) vs
   `bench/plain_mcp.py list A B` (each endpoint in turn); and the same two ways in process,
   without start-up costs; then both again through a proxy that adds 50 ms of round trip
   (a far host);
3. `fleet-tui tools --mcp A` vs `npx @modelcontextprotocol/inspector --cli A --method
   tools/list`, when npx is on PATH (the first run fetches the package from npm).

Run: python bench/bench_cli.py [--runs N]   (prints a table; medians of N runs, ratios of
medians measured in the same run)
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAIN = [sys.executable, str(ROOT / "bench" / "plain_mcp.py")]
FLEET_TUI = [sys.executable, "-m", "fleet_tui"]
INSPECTOR = ["npx", "--yes", "@modelcontextprotocol/inspector", "--cli"]
ONE_WAY_S = 0.025
"""Latency added each way for the far-host rows."""


def byte_compile_fleet_tui() -> None:
    """Write fleet-tui's bytecode, as installing it does (pip compiles a wheel's modules), so a
    fresh process loads it as it loads the mcp SDK's: from `__pycache__`. Without this, an
    editable checkout run with PYTHONDONTWRITEBYTECODE set compiles ~100 of its modules from
    source in every process and the baselines, whose bytecode was written at install, do not."""
    compileall.compile_dir(ROOT / "fleet_tui", quiet=1)


class LatencyProxy:
    """A TCP proxy that holds every chunk for `one_way_s` in each direction: a far host's
    round-trip time, for any protocol (streamed SSE responses included)."""

    def __init__(self, upstream_port: int, one_way_s: float) -> None:
        self.upstream_port = upstream_port
        self.one_way_s = one_way_s
        self.loop = asyncio.new_event_loop()
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._connection, "127.0.0.1", 0)
        )
        self.port = self.server.sockets[0].getsockname()[1]
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while chunk := await reader.read(65536):
                await asyncio.sleep(self.one_way_s)
                writer.write(chunk)
                await writer.drain()
        writer.close()

    def url(self, url: str) -> str:
        """`url` (on the upstream port) routed through the proxy."""
        return url.replace(f":{self.upstream_port}/", f":{self.port}/", 1)


def start_host() -> tuple[subprocess.Popen, str, str]:
    """`fleet-tui local serve`: the process, its base URL and its key."""
    host = subprocess.Popen(
        [*FLEET_TUI, "local", "serve"], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    lines = [host.stdout.readline().strip() for _ in range(2)]
    if not (lines[0].startswith("FLEET_BASE_URL=") and lines[1].startswith("FLEET_API_KEY=")):
        host.kill()
        raise SystemExit(f"the local host did not start: {lines!r}")
    return host, lines[0].split("=", 1)[1], lines[1].split("=", 1)[1]


def start_mcp_server(name: str) -> tuple[subprocess.Popen, str]:
    """One of the test suite's MCP servers in its own process, and its URL."""
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.fixtures.mcp_servers", name],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    url = server.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        server.kill()
        raise SystemExit(f"the MCP server {name} did not start: {url!r}")
    return server, url


def provision(base_url: str) -> tuple[str, str]:
    """A running tracker instance: (instance id, MCP root URL)."""
    import fleet

    env = fleet.Fleet(api_key=os.environ["FLEET_API_KEY"], base_url=base_url).make("tracker")
    return env.instance_id, env.urls.root


def run_once(command: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=child_env())
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    return elapsed


def child_env() -> dict[str, str]:
    """This environment with no FLEET_ settings but the local host's key."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("FLEET_")}
    return {**clean, "FLEET_API_KEY": os.environ["FLEET_API_KEY"]}


def medians(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall time of each command; runs interleaved so load drifts hit all alike."""
    for command in commands.values():
        run_once(command)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(run_once(command))
    return {name: statistics.median(values) for name, values in times.items()}


async def in_process_listing(urls: list[str], runs: int) -> tuple[float, float]:
    """Median seconds to connect and list: McpUnion (parallel) vs one endpoint after another."""
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from fleet_tui.envs.mcp_union import McpUnion

    async def union() -> None:
        joined = McpUnion(urls)
        await joined.connect()
        await joined.list_tools()
        await joined.close()

    async def one_after_the_other() -> None:
        for url in urls:
            async with (
                streamable_http_client(url) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await session.list_tools()

    async def median(work) -> float:
        await work()
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            await work()
            samples.append(time.perf_counter() - started)
        return statistics.median(samples)

    return await median(union), await median(one_after_the_other)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command")
    runs = parser.parse_args().runs
    byte_compile_fleet_tui()

    host, base_url, key = start_host()
    os.environ["FLEET_API_KEY"] = key  # for provision() and every command
    servers = [start_mcp_server(name) for name in ("alpha", "beta")]
    try:
        instance_id, root = provision(base_url)
        (_, mcp_a), (_, mcp_b) = servers
        rows = []

        call = medians(
            {
                "fleet-tui": [
                    *FLEET_TUI,
                    "call",
                    "--base-url",
                    base_url,
                    "--instance",
                    instance_id,
                    "list_users",
                ],
                "plain": [*PLAIN, "call", f"{root}api/v1/mcp", "list_users", "{}"],
            },
            runs,
        )
        rows.append(
            (
                "call list_users (attach, 2 endpoints)",
                "mcp SDK script, 1 endpoint",
                call["fleet-tui"],
                call["plain"],
            )
        )

        tools = medians(
            {
                "fleet-tui": [*FLEET_TUI, "tools", "--mcp", mcp_a, "--mcp", mcp_b],
                "plain": [*PLAIN, "list", mcp_a, mcp_b],
            },
            runs,
        )
        rows.append(
            (
                "tools over 2 endpoints (parallel)",
                "mcp SDK script, one after other",
                tools["fleet-tui"],
                tools["plain"],
            )
        )

        union, sequential = asyncio.run(in_process_listing([mcp_a, mcp_b], runs * 5))
        rows.append(("  same, in process (no start-up)", "  same, in process", union, sequential))

        far_a, far_b = (LatencyProxy(port_of(url), ONE_WAY_S).url(url) for url in (mcp_a, mcp_b))
        far = medians(
            {
                "fleet-tui": [*FLEET_TUI, "tools", "--mcp", far_a, "--mcp", far_b],
                "plain": [*PLAIN, "list", far_a, far_b],
            },
            runs,
        )
        rtt = f"{2 * ONE_WAY_S * 1000:.0f} ms RTT"
        rows.append(
            (
                f"tools over 2 endpoints, {rtt}",
                "mcp SDK script, one after other",
                far["fleet-tui"],
                far["plain"],
            )
        )
        union, sequential = asyncio.run(in_process_listing([far_a, far_b], runs * 2))
        rows.append(("  same, in process", "  same, in process", union, sequential))

        if shutil.which("npx"):
            inspector = medians(
                {
                    "fleet-tui": [*FLEET_TUI, "tools", "--mcp", mcp_a],
                    "inspector": [*INSPECTOR, mcp_a, "--method", "tools/list"],
                },
                runs,
            )
            rows.append(
                (
                    "tools --mcp URL (cold start)",
                    "npx inspector --cli tools/list",
                    inspector["fleet-tui"],
                    inspector["inspector"],
                )
            )
        else:
            print("npx not found: skipping the MCP Inspector comparison", file=sys.stderr)
    finally:
        for process in (host, *(server for server, _ in servers)):
            process.terminate()
            process.wait(timeout=10)

    print_table(rows, runs)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


def print_table(rows: list[tuple[str, str, float, float]], runs: int) -> None:
    header = ("fleet-tui", "baseline", "fleet-tui s", "baseline s", "ratio")
    lines = [header] + [
        (ours, theirs, f"{a:.3f}", f"{b:.3f}", f"{a / b:.2f}") for ours, theirs, a, b in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print(f"medians of {runs} runs (in-process rows: more); ratio = fleet-tui / baseline")
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))


if __name__ == "__main__":
    main()
