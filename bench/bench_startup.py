"""Start-up benchmark: the TUI's first frame against a bare Textual app's, and `--help`.

Run: .venv/bin/python bench/bench_startup.py [--runs 5]
Each program runs as a fresh process in a pseudo-terminal of 120x36 (what a person's terminal
gives it: textual-image probes it, Textual draws into it). Timed from the spawn until the
first frame shows a marker: the bare app's text; the TUI's filter box ("Filter tools"; its
first letter is left out of the marker, as the focused box draws its blinking cursor over it, so
"Filter tools" shows unbroken only in frames where the cursor is off); then,
for the TUI, until its first tool is listed (tools arrive after the first frame). Runs are
interleaved, medians; the ratio is measured in one run. `fleet-tui --help` is timed the same way
against the interpreter starting and doing nothing. fleet-tui's modules are compiled to bytecode
first, as an install does (Textual's come compiled).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_cli import byte_compile_fleet_tui, start_mcp_server  # noqa: E402

BARE_APP = """
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static("bare textual app ready")
Bare().run()
"""
FIRST_FRAME_MARKER = b"ilter tools"
"""The filter box's placeholder without its first letter, which the cursor covers half the time."""
FIRST_FRAME_GOAL = 2.0
HELP_GOAL_S = 0.080
TIMEOUT_S = 30.0


def spawn_until(command: list[str], markers: list[bytes]) -> list[float]:
    """Seconds from spawning `command` in a pseudo-terminal until each marker has appeared in
    its output; then it is asked to quit (ctrl+q) and ended."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: a terminal of 120x36
        os.environ.update(TERM="xterm-256color", COLORTERM="truecolor")
        os.execvp(command[0], command)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
    started = time.perf_counter()
    seen, times = b"", []
    try:
        while len(times) < len(markers):
            if time.perf_counter() - started > TIMEOUT_S:
                raise SystemExit(f"no {markers[len(times)]!r} from {command}: {seen[-400:]!r}")
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                seen += os.read(fd, 65536)
                while len(times) < len(markers) and markers[len(times)] in seen:
                    times.append(time.perf_counter() - started)
    finally:
        quit_child(pid, fd)
    return times


def quit_child(pid: int, fd: int) -> None:
    try:
        os.write(fd, b"\x11")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    os.read(fd, 65536)
                except OSError:
                    break
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    finally:
        os.close(fd)


def time_help() -> tuple[float, float]:
    """Seconds for `fleet-tui --help`, and for the interpreter doing nothing."""
    times = []
    for command in ([sys.executable, "-m", "fleet_tui", "--help"], [sys.executable, "-c", "0"]):
        started = time.perf_counter()
        subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
    return times[0], times[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    byte_compile_fleet_tui()
    server, url = start_mcp_server("alpha")
    app = [sys.executable, "-m", "fleet_tui", "--mcp", url, "--no-record"]
    bare = [sys.executable, "-c", BARE_APP]
    try:
        bare_times, auto_times, forced_times, helps = [], [], [], []
        for _ in range(runs):
            bare_times.append(spawn_until(bare, [b"bare textual app ready"])[0])
            auto_times.append(spawn_until(app, [FIRST_FRAME_MARKER, b"echo"]))
            forced = [*app, "--image-backend", "halfcell"]
            forced_times.append(spawn_until(forced, [FIRST_FRAME_MARKER, b"echo"]))
            helps.append(time_help())
    finally:
        server.kill()
    bare_first = statistics.median(bare_times)
    print(f"bare Textual app, first frame: {bare_first * 1000:.0f} ms")
    for label, times in (
        ("auto image backend", auto_times),
        ("--image-backend halfcell", forced_times),
    ):
        first = statistics.median(t[0] for t in times)
        tools = statistics.median(t[1] for t in times)
        ratio = first / bare_first
        met = "met" if ratio <= FIRST_FRAME_GOAL else "NOT met"
        print(
            f"fleet-tui ({label}): first frame {first * 1000:.0f} ms = {ratio:.1f}x the bare "
            f"app (goal <= {FIRST_FRAME_GOAL:.0f}x: {met}); tools listed at {tools * 1000:.0f} ms"
        )
    help_s = statistics.median(h[0] for h in helps)
    floor = statistics.median(h[1] for h in helps)
    met = "met" if help_s <= HELP_GOAL_S else "NOT met"
    print(
        f"fleet-tui --help: {help_s * 1000:.0f} ms (goal <= {HELP_GOAL_S * 1000:.0f} ms: {met}); "
        f"the interpreter alone {floor * 1000:.0f} ms, so fleet-tui's own part "
        f"{(help_s - floor) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
