"""Headless one-shot call benchmark: `fleet-tui call` against MCP Inspector's CLI.

Run: .venv/bin/python bench/bench_inspector.py [--runs 5]
Needs Node.js and MCP Inspector 2.12 installed in `.cache/inspector` (not npx, which adds
~0.5 s): `mkdir -p .cache/inspector && cd .cache/inspector &&
npm install @modelcontextprotocol/inspector@2.12.0`
(it declares Node >= 22.19 and works on Node 20). Both call `echo` on the test suite's `alpha`
MCP server as fresh processes (start-up counts); runs interleaved, medians. fleet-tui runs
twice: cold (connecting itself, as by default) and forwarded to the warm session an earlier
`--keep-warm` left running (each in a runtime folder of the benchmark's own).
A third row runs `bench/plain_mcp.py call`, the mcp SDK alone in a fresh interpreter: the floor
any Python client pays before fleet-tui's own part. fleet-tui's bytecode is written first, as
installing it does (the SDK's was written when it was installed).
Goals: fleet-tui / inspector <= 1.2 cold, <= 0.15 warm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import byte_compile_fleet_tui, start_mcp_server  # noqa: E402

INSPECTOR = ROOT / ".cache" / "inspector" / "node_modules" / "@modelcontextprotocol" / "inspector"
GOAL = 1.2
WARM_GOAL = 0.15


def inspector_cli() -> Path:
    """The installed CLI's entry: 2.x keeps it under `clients/`, 0.x under `cli/`."""
    for entry in (
        INSPECTOR / "clients" / "cli" / "build" / "index.js",
        INSPECTOR / "cli" / "build" / "cli.js",
    ):
        if entry.exists():
            return entry
    return entry


def seconds(command: list[str], env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "hi" not in done.stdout:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    return elapsed


def runtime_env(folder: str) -> dict[str, str]:
    """The environment of a fleet-tui run whose warm sessions live in `folder`."""
    kept = {name: value for name, value in os.environ.items() if name != "FLEET_TUI_KEEP_WARM"}
    return {**kept, "XDG_RUNTIME_DIR": folder}


def wait_until_warm(fleet_tui: list[str], env: dict[str, str]) -> None:
    """Wait for the daemon `--keep-warm` started to listen."""
    for _ in range(300):
        listed = subprocess.run(
            [*fleet_tui, "warm", "list"], capture_output=True, text=True, env=env
        )
        if listed.stdout.strip():
            return
        time.sleep(0.1)
    raise SystemExit("the warm session did not start")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    entry = inspector_cli()
    node = shutil.which("node")
    if node is None or not entry.exists():
        raise SystemExit(f"needs node and {entry} (see this file's docstring)")
    byte_compile_fleet_tui()
    server, url = start_mcp_server("alpha")
    ours = [sys.executable, "-m", "fleet_tui", "call", "--mcp", url, "echo", "-a", "text=hi"]
    cold, warm = tempfile.mkdtemp(dir="/tmp"), tempfile.mkdtemp(dir="/tmp")
    commands = {
        "fleet-tui call": (ours, runtime_env(cold)),
        "fleet-tui call, warm": (ours, runtime_env(warm)),
        "mcp SDK script": (
            [sys.executable, "bench/plain_mcp.py", "call", url, "echo", '{"text": "hi"}'],
            None,
        ),
        "inspector --cli": (
            [
                *(node, str(entry), "--cli", url, "--transport", "http"),
                *("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "text=hi"),
            ],
            None,
        ),
    }
    try:
        seconds([*ours, "--keep-warm", "600"], runtime_env(warm))
        wait_until_warm(ours[:3], runtime_env(warm))
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs + 1):  # the first round warms the disk cache (and the session)
            for name, (command, env) in commands.items():
                times[name].append(seconds(command, env))
    finally:
        subprocess.run([*ours[:3], "warm", "stop"], env=runtime_env(warm), capture_output=True)
        server.kill()
        for folder in (cold, warm):
            shutil.rmtree(folder, ignore_errors=True)
    cold_s, warm_s, sdk_s, theirs = (statistics.median(t[1:]) for t in times.values())
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {runs} interleaved runs")
    print(
        f"one-shot call: fleet-tui {cold_s * 1000:.0f} ms, through a warm session "
        f"{warm_s * 1000:.0f} ms, mcp SDK script {sdk_s * 1000:.0f} ms, "
        f"inspector CLI {theirs * 1000:.0f} ms"
    )
    for name, ours_s, goal in (("fleet-tui", cold_s, GOAL), ("fleet-tui, warm", warm_s, WARM_GOAL)):
        met = "met" if ours_s / theirs <= goal else "NOT met"
        print(f"  {name} / inspector: {ours_s / theirs:.2f}x (goal <= {goal}x: {met})")
    print(f"  the Python floor, mcp SDK script / inspector: {sdk_s / theirs:.2f}x")
    print(f"  fleet-tui / mcp SDK script: {cold_s / sdk_s:.2f}x")


if __name__ == "__main__":
    main()
