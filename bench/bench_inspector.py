"""Headless one-shot call benchmark: `fleet-tui call` against MCP Inspector's CLI.

Run: .venv/bin/python bench/bench_inspector.py [--runs 5]
Needs Node.js and the inspector installed in `.cache/inspector` (not npx, which adds ~0.5 s):
    mkdir -p .cache/inspector && cd .cache/inspector && npm install @modelcontextprotocol/inspector
(it declares Node >= 22.19 and works on Node 20). Both call `echo` on the test suite's `alpha`
MCP server as fresh processes (start-up counts); runs interleaved, medians.
Goal: fleet-tui / inspector <= 1.0.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import start_mcp_server  # noqa: E402

INSPECTOR = ROOT / ".cache" / "inspector" / "node_modules" / "@modelcontextprotocol" / "inspector"
GOAL = 1.0


def seconds(command: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "hi" not in done.stdout:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    entry = INSPECTOR / "cli" / "build" / "cli.js"
    node = shutil.which("node")
    if node is None or not entry.exists():
        raise SystemExit(f"needs node and {entry} (see this file's docstring)")
    server, url = start_mcp_server("alpha")
    commands = {
        "fleet-tui call": [
            *(sys.executable, "-m", "fleet_tui", "call", "--mcp", url),
            *("echo", "-a", "text=hi"),
        ],
        "inspector --cli": [
            *(node, str(entry), "--cli", url, "--transport", "http", "--method", "tools/call"),
            *("--tool-name", "echo", "--tool-arg", "text=hi"),
        ],
    }
    try:
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs + 1):  # the first round warms the disk cache
            for name, command in commands.items():
                times[name].append(seconds(command))
    finally:
        server.kill()
    ours, theirs = (statistics.median(t[1:]) for t in times.values())
    met = "met" if ours / theirs <= GOAL else "NOT met"
    print(f"one-shot call: fleet-tui {ours * 1000:.0f} ms, inspector CLI {theirs * 1000:.0f} ms")
    print(f"  fleet-tui / inspector: {ours / theirs:.2f}x (goal <= {GOAL}x: {met})")


if __name__ == "__main__":
    main()
