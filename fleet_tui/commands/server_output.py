"""What a headless command shows of what servers say on their own, on stderr: the progress of
a call (a bar redrawn in place on a terminal, one line per report otherwise) and, with
`--log-level LEVEL`, their log messages from that level up (the level is also sent to them
with logging/setLevel). `--trace FILE` writes the protocol log there, one JSON line per
JSON-RPC message or HTTP request (`envs/traffic.py`: redacted, each message's JSON kept up to
64 KB), for its owner only, up to TRACE_MAX_BYTES a run: then a last line says it was cut.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import TracebackType
from typing import IO, TextIO

from fleet_tui.envs.base import EnvError
from fleet_tui.envs.server_events import LEVELS, ServerLog, check_level, level_rank
from fleet_tui.envs.traffic import TrafficEntry
from fleet_tui.session_records import CallFinished, CallProgress, SessionEvent, Traffic
from fleet_tui.text import clean, one_line

BAR_WIDTH = 24
TRACE_MAX_BYTES = 32 * 1024 * 1024
"""What one run writes to a trace at most: a server that logs without end cannot fill the disk."""


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--log-level",
        metavar="LEVEL",
        type=log_level,
        help="print the servers' log messages from LEVEL up on stderr (and ask the servers for "
        f"them): one of {', '.join(LEVELS)}",
    )
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="write every JSON-RPC message and HTTP request to FILE, one JSON line each "
        "(secrets redacted)",
    )


def log_level(text: str) -> str:
    """An argparse type: an MCP log level, in any case."""
    try:
        return check_level(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def progress_bar(progress: float, total: float | None, message: str | None) -> str:
    """`[#####-----] 3/4 message`, or `[ ... ] 3 message` when the total is unknown."""
    if total and total > 0:
        filled = max(0, min(BAR_WIDTH, round(BAR_WIDTH * progress / total)))
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        count = f"{progress:g}/{total:g}"
    else:
        bar = "working".center(BAR_WIDTH, ".")
        count = f"{progress:g}"
    return f"[{bar}] {count} {one_line(message or '', 80)}".rstrip()


class ServerOutput:
    """Prints server events on `stream` (stderr) and writes the trace: a listener of the
    session's events (`hear`); `level` is asked of the servers as they open. A context
    manager: leaving it closes the trace file."""

    def __init__(
        self, level: str | None, stream: TextIO | None = None, trace: str | None = None
    ) -> None:
        self.level = level
        self.stream = stream or sys.stderr
        self._bar_shown = False
        self._trace: IO[str] | None = open_trace(trace) if trace else None
        self._traced_bytes = 0

    def __enter__(self) -> ServerOutput:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._close_trace()

    def _close_trace(self) -> None:
        if self._trace is not None:
            self._trace.close()
            self._trace = None

    def trace(self, entry: TrafficEntry) -> None:
        """Write `entry` as a line of the trace; past TRACE_MAX_BYTES, a last line saying the
        trace was cut, and nothing more."""
        if self._trace is None:
            return
        line = json.dumps(entry.as_json(), ensure_ascii=False, default=str) + "\n"
        self._traced_bytes += len(line.encode("utf-8", "surrogatepass"))
        if self._traced_bytes <= TRACE_MAX_BYTES:
            self._trace.write(line)
            self._trace.flush()
            return
        megabytes = TRACE_MAX_BYTES // (1024 * 1024)
        self._trace.write(json.dumps({"note": f"trace cut at {megabytes} MB"}) + "\n")
        self._close_trace()

    @property
    def on_terminal(self) -> bool:
        return self.stream.isatty()

    def hear(self, event: SessionEvent) -> None:
        """A session event: a call's progress (its bar ended when it finishes), a server's
        log message, a message traced."""
        if isinstance(event, CallProgress):
            line = progress_bar(event.progress, event.total, event.message)
            if self.on_terminal:
                self._write(f"\r\x1b[2K{line}", end="")
                self._bar_shown = True
            else:
                self._write(f"progress: {line}")
        elif isinstance(event, ServerLog) and self.wants(event):
            self.end_bar()
            logger = f" {clean(event.logger)}:" if event.logger else ""
            self._write(f"[{clean(event.level)}]{logger} {clean(event.text())}")
        elif isinstance(event, Traffic):
            self.trace(event.entry)
        elif isinstance(event, CallFinished):
            self.end_bar()

    def wants(self, entry: ServerLog) -> bool:
        """Whether `--log-level` asked for this message."""
        return self.level is not None and level_rank(entry.level) >= level_rank(self.level)

    def end_bar(self) -> None:
        """End the line a progress bar is drawn on (before other output)."""
        if self._bar_shown:
            self._bar_shown = False
            self._write("")

    def _write(self, text: str, end: str = "\n") -> None:
        print(text, end=end, file=self.stream, flush=True)


def open_trace(path: str) -> IO[str]:
    """The trace file, for its owner only (appended to); EnvError (exit 2) when it cannot be."""
    from fleet_tui.private_files import make_private_dir, open_private_append

    target = Path(path)
    try:
        make_private_dir(target.parent)
        return open_private_append(target)
    except OSError as error:
        raise EnvError(f"cannot write the trace {path}: {error.strerror or error}") from None
