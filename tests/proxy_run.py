"""`fleet-tui proxy` run as a child process, for tests: its serving line, then stopped."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
from collections.abc import Iterator

from tests.cli_run import child_env


class Proxy:
    """A running `fleet-tui proxy` child process and its first (serving) line."""

    def __init__(self, process: subprocess.Popen, serving: dict) -> None:
        self.process = process
        self.url: str = serving["url"]
        self.token: str = serving["token"]
        self.config: dict = serving["config"]

    def send(self, command: str) -> None:
        """A command line on its stdin (`proxy`'s control)."""
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def next_line(self, event: str) -> dict:
        """Its next JSON line of that `event` (the lines before it are passed over)."""
        return self.lines_until(event)[-1]

    def lines_until(self, event: str) -> list[dict]:
        """Its next JSON lines, up to and with the next one of that `event`."""
        assert self.process.stdout is not None
        lines = []
        for text in self.process.stdout:
            lines.append(json.loads(text))
            if lines[-1]["event"] == event:
                return lines
        raise AssertionError(f"no {event} line: the proxy ended")

    def stop(self) -> tuple[int, list[dict], str]:
        """SIGTERM it; its exit code, its JSON lines after the first, and its stderr."""
        self.process.send_signal(signal.SIGTERM)
        stdout, stderr = self.process.communicate(timeout=60)
        return self.process.returncode, [json.loads(line) for line in stdout.splitlines()], stderr


@contextlib.contextmanager
def proxy(*args: str, env: dict[str, str] | None = None) -> Iterator[Proxy]:
    """`fleet-tui proxy ARGS` (with `env` added to its environment) until the block ends."""
    process = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "proxy", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(env),
    )
    try:
        first = process.stdout.readline()
        if not first:
            raise AssertionError(process.communicate(timeout=30)[1])
        yield Proxy(process, json.loads(first))
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=30)
