"""The warm-session daemon (`fleet-tui warm serve`, started by `--keep-warm`): holds one MCP
target's session open and runs the `call` and `tools` command lines forwarded to it
(`warm/client.py`) on it, one at a time, as the command would run them itself: the same code,
its stdout and stderr written back to the forwarding process as they are written (a command
that comes while another runs is sent back to run on its own). It listens on a Unix socket
only its owner can reach (0600, in a 0700 folder, the peer's uid checked), keeps the target's
headers in memory only, and ends after `idle_s` seconds without a command, on
`fleet-tui warm stop`, or on SIGTERM.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import hashlib
import hmac
import io
import json
import os
import signal
import socket
import struct
import sys
import time
from pathlib import Path
from typing import IO, Any

from fleet_tui.commands import command_module, command_parser, lifecycle, run_command
from fleet_tui.commands.client_options import HeadlessAnswers
from fleet_tui.commands.output import err
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.base import EnvError, Progress
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.mcp_union import McpEnv
from fleet_tui.envs.server_requests import (
    ElicitAnswer,
    ElicitRequest,
    SampleRequest,
    ServerRequests,
)
from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.warm.client import WARM_COMMANDS
from fleet_tui.warm.start import kept_warm_note

MAX_REQUEST_BYTES = 1024 * 1024
"""The longest forwarded command line (as JSON) the daemon reads."""


def encoded(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


class Relay(io.TextIOBase):
    """Stands in for stdout or stderr while a command runs: what is written goes to `send` as
    `{"o": number, "t": text}`; it is a terminal, and has the encoding, that the forwarding
    process's stream has."""

    def __init__(self, number: int, send: Any, described: dict[str, Any]) -> None:
        self._number, self._send = number, send
        self._tty = bool(described.get("tty"))
        self._encoding = str(described.get("encoding") or "utf-8")
        self._errors = str(described.get("errors") or "strict")

    def write(self, text: str) -> int:
        if text:
            self._send({"o": self._number, "t": text})
        return len(text)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    @property
    def errors(self) -> str:  # type: ignore[override]
        return self._errors


class Switchboard:
    """The session's handlers for what servers send, and its port for what they ask: they go
    to the handlers and the answers of the command being served (between commands, requests
    are declined, notifications dropped)."""

    def __init__(self) -> None:
        self.current: ClientHandlers | None = None
        self.answers: ServerRequests | None = None
        self.idle = HeadlessAnswers([])  # no roots unless a command gives some
        self.handlers = ClientHandlers(
            on_notification=[self._notification], on_progress=[self._progress]
        ).answer_with(self)

    def _now(self) -> ServerRequests:
        return self.answers or self.idle

    def _notification(self, url: str, message: Any) -> None:
        for handler in self.current.on_notification if self.current else []:
            handler(url, message)

    def _progress(self, *report: Any) -> None:
        for handler in self.current.on_progress if self.current else []:
            handler(*report)

    async def elicit(self, request: ElicitRequest) -> ElicitAnswer:
        return await self._now().elicit(request)

    async def sample(self, request: SampleRequest) -> str | None:
        return await self._now().sample(request)

    def roots(self) -> list[str]:
        return self._now().roots()


def headers_digest(headers: dict[str, str]) -> bytes:
    return hashlib.sha256(json.dumps(sorted(headers.items())).encode()).digest()


def same_user(writer: asyncio.StreamWriter) -> bool:
    """Whether the peer on a Unix socket runs as this user (Linux SO_PEERCRED)."""
    connection: socket.socket = writer.get_extra_info("socket")
    credentials = getattr(socket, "SO_PEERCRED", None)
    if credentials is None:  # not Linux: the 0700 folder alone keeps others out
        return True
    _pid, uid, _gid = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, credentials, 12))
    return uid == os.getuid()


class WarmDaemon:
    """One target's open session, served on `path` until idle for `idle_s` seconds."""

    def __init__(self, target: McpTarget, cwd: str, idle_s: float, path: Path, lock: IO[str]):
        self.target, self.cwd, self.idle_s, self.path, self._lock = target, cwd, idle_s, path, lock
        self.switchboard = Switchboard()
        self.env = McpEnv(target)
        self.env.listen(self.switchboard.handlers)
        self.served = 0
        self.last_used = time.monotonic()
        self._busy = False
        self._turn = asyncio.Lock()
        self._stopping = asyncio.Event()
        self._current: concurrent.futures.Future[int] | None = None
        self._bound = -1
        """The inode of the socket this daemon bound."""
        self._loop: asyncio.AbstractEventLoop | None = None

    async def run(self) -> int:
        """Connect, then serve until idle or stopped; 1 when the target cannot be reached."""
        self._loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            self._loop.add_signal_handler(signum, self._stopping.set)
        try:
            await self.env.connect()
        except Exception:
            await self.env.close()
            return 1
        lifecycle.warm_runner = self.run_work
        umask = os.umask(0o177)  # the socket: 0600
        try:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            server = await asyncio.start_unix_server(
                self.answer, path=str(self.path), limit=MAX_REQUEST_BYTES
            )
        finally:
            os.umask(umask)
        self._bound = self.path.stat().st_ino
        self.last_used = time.monotonic()  # idle from now on, however long connecting took
        try:
            await self._until_idle()
        finally:
            server.close()
            self._give_way()
            await self.env.close()
        return 0

    async def _until_idle(self) -> None:
        while not self._stopping.is_set():
            left = self.last_used + self.idle_s - time.monotonic()
            if left <= 0 and not self._busy:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), max(left, 0.5))

    def _give_way(self) -> None:
        """Leave the socket path (unless the next daemon holds it already) and the lock to the
        next daemon for this target."""
        with contextlib.suppress(OSError):
            if self.path.stat().st_ino == self._bound:
                self.path.unlink()
        self._lock.close()

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if not same_user(writer):
                return
            request = json.loads(await reader.readline())
            if request.get("stop"):
                self._give_way()
                self._stopping.set()
                writer.write(encoded({"stopped": True}))
            elif request.get("status"):
                writer.write(encoded(self.status()))
            elif self._turn.locked():  # serving another command: this one runs on its own now
                writer.write(encoded({"cold": True}))
            else:
                async with self._turn:
                    self._busy = True
                    try:
                        await self.serve(request, reader, writer)
                    finally:
                        self._busy = False
                        self.last_used = time.monotonic()
            await writer.drain()
        except (OSError, ValueError, asyncio.LimitOverrunError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def status(self) -> dict[str, Any]:
        return {
            "pid": os.getpid(),
            "urls": self.target.urls,
            "cwd": self.cwd,
            "idle_s": self.idle_s,
            "unused_s": round(time.monotonic() - self.last_used, 1),
            "served": self.served,
        }

    async def serve(
        self, request: dict[str, Any], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """Run one forwarded command line, or tell the client to run it itself."""
        parsed = self.servable(request)
        if parsed is None:
            writer.write(encoded({"cold": True}))
            return
        writer.write(encoded({"accepted": True}))
        loop = asyncio.get_running_loop()

        def send(message: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(writer.write, encoded(message))

        out, err = request["streams"]
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = Relay(1, send, out), Relay(2, send, err)
        try:
            job = asyncio.ensure_future(asyncio.to_thread(run_command, *parsed))
            gone = asyncio.ensure_future(reader.read(1))  # the client leaves (Ctrl+C): stop
            await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not job.done():
                if self._current is not None:
                    self._current.cancel()
                with contextlib.suppress(BaseException):
                    await job
                return
            gone.cancel()
            code = job.result()
        finally:
            sys.stdout, sys.stderr = saved
        self.served += 1
        writer.write(encoded({"exit": code}))

    def servable(self, request: dict[str, Any]) -> tuple[Any, Any] | None:
        """(the command's module, its parsed arguments) when this daemon can run the command
        line as the command would: `call` or `tools` on this very target (URLs and headers)
        from the same directory, without `--log-level` or `--trace` (they concern the
        connection itself)."""
        argv = request.get("argv") or [""]
        if argv[0] not in WARM_COMMANDS or request.get("cwd") != self.cwd:
            return None
        parser = command_parser(argv[0])
        try:
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                args = parser.parse_args(argv[1:])
            target = target_from_args(args)
        except (SystemExit, EnvError):  # the command run cold says what is wrong
            return None
        if args.log_level is not None or args.trace is not None or not self.serves(target):
            return None
        return command_module(argv[0]), args

    def serves(self, target: Target) -> bool:
        return (
            isinstance(target, McpTarget)
            and target.urls == self.target.urls
            and not target.stdio
            and hmac.compare_digest(
                headers_digest(target.headers), headers_digest(self.target.headers)
            )
        )

    def run_work(
        self,
        target: Target,
        work: lifecycle.Work,
        handlers: ClientHandlers | None,
        requests: ServerRequests | None,
        keep_warm: float | None,
    ) -> int:
        """`lifecycle.warm_runner`: run `work` on the open session (called in the command's
        thread; the work runs on the daemon's event loop)."""
        assert self._loop is not None
        self._current = asyncio.run_coroutine_threadsafe(
            self._work(work, handlers, requests), self._loop
        )
        try:
            code = self._current.result()
        except concurrent.futures.CancelledError:
            raise KeyboardInterrupt from None
        if keep_warm is not None:  # as a cold run with --keep-warm would leave a daemon
            self.idle_s = keep_warm
            err(kept_warm_note(keep_warm))
        return code

    async def _work(
        self,
        work: lifecycle.Work,
        handlers: ClientHandlers | None,
        requests: ServerRequests | None,
    ) -> int:
        self.switchboard.current, self.switchboard.answers = handlers, requests
        try:
            return await lifecycle.connected_work(self.env, work, self._reconnect)
        finally:
            self.switchboard.current, self.switchboard.answers = None, None

    async def _reconnect(self, progress: Progress) -> None:
        """What connecting does for a fresh command (the same progress lines): endpoints that
        went down are opened again, and the tools listed afresh."""
        await self.env.union.connect(progress, keep_open=True)
        await self.env.union.list_tools(refresh=True)


def take_lock(path: Path) -> IO[str] | None:
    """The lock of a target's daemon, held while it serves; None if another daemon has it."""
    lock = os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return None
    return lock
