"""The warm-session daemon (`fleet-tui warm serve`, started by `--keep-warm`): holds one MCP
target's session open and runs the `call` and `tools` command lines forwarded to it
(`warm/client.py`) on it, one at a time, as the command would run them itself: the same
`SessionCommand` on its open session, on its own event loop, with an `Output` whose stdout and
stderr are written back to the forwarding process as they are written (a command that comes
while another runs is sent back to run on its own). It listens on a Unix socket only its owner
can reach (0600, in a 0700 folder, the peer's uid checked), keeps the target's headers in
memory only, and ends after `idle_s` seconds without a command, on `fleet-tui warm stop`, or on
SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
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
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import IO, Any, TextIO, cast

from fleet_tui.commands import command_module, command_parser
from fleet_tui.commands.client_options import HeadlessAnswers
from fleet_tui.commands.command_parser import ParseError
from fleet_tui.commands.lifecycle import SessionCommand, checked
from fleet_tui.commands.output import Output
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.protocol_revision import DEFAULT_PROTOCOL
from fleet_tui.envs.server_requests import ElicitAnswer, ElicitRequest, SampleRequest
from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.session_open import connect, open_session
from fleet_tui.session_records import SessionEvent
from fleet_tui.warm.client import WARM_COMMANDS
from fleet_tui.warm.start import kept_warm_note

MAX_REQUEST_BYTES = 1024 * 1024
"""The longest forwarded command line (as JSON) the daemon reads."""


def encoded(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


class ClientStream(io.TextIOBase):
    """The forwarding process's stdout or stderr, for a command's `Output`: what is written
    goes to `send` as `{"o": number, "t": text}`; it is a terminal, and has the encoding, that
    the forwarding process's stream has."""

    def __init__(
        self, number: int, send: Callable[[dict[str, Any]], None], described: dict[str, Any]
    ) -> None:
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
    """The session's port for what servers ask, its listener and where its notes go: each to
    the command being served, its answers, listeners and output (between commands, requests
    are declined, events and notes dropped)."""

    def __init__(self) -> None:
        self.command: SessionCommand | None = None
        self.out: Output | None = None
        self.idle = HeadlessAnswers([])  # no roots unless a command gives some

    def serve(self, command: SessionCommand | None, out: Output | None) -> None:
        self.command, self.out = command, out

    def _now(self) -> HeadlessAnswers:
        answers = self.command.answers if self.command is not None else None
        return answers if isinstance(answers, HeadlessAnswers) else self.idle

    def hear(self, event: SessionEvent) -> None:
        for listener in self.command.listeners() if self.command is not None else []:
            listener(event)

    def err(self, text: str) -> None:
        if self.out is not None:
            self.out.err(text)

    def warn(self, text: str) -> None:
        if self.out is not None:
            self.out.warn(text)

    async def elicit(self, request: ElicitRequest) -> ElicitAnswer:
        return await self._now().elicit(request)

    async def sample(self, request: SampleRequest) -> None:
        await self._now().sample(request)

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
        self.session: SessionController | None = None
        self.served = 0
        self.last_used = time.monotonic()
        self._busy = False
        self._turn = asyncio.Lock()
        self._stopping = asyncio.Event()
        self._bound = -1
        """The inode of the socket this daemon bound."""

    async def run(self) -> int:
        """Connect, then serve until idle or stopped; 1 when the target cannot be reached."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self._stopping.set)
        async with contextlib.AsyncExitStack() as stack:
            board = self.switchboard
            opening = open_session(self.target, board, notes=board, listeners=[board.hear])
            try:
                self.session = await stack.enter_async_context(opening)
            except Exception:
                return 1
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
        """Run one forwarded command line, or tell the client to run it itself; the client
        leaving (Ctrl+C, a signal) stops the command."""
        parsed = self.servable(request)
        if parsed is None:
            writer.write(encoded({"cold": True}))
            return
        writer.write(encoded({"accepted": True}))
        module, args = parsed

        def send(message: dict[str, Any]) -> None:
            writer.write(encoded(message))

        described_stdout, described_stderr = request["streams"]
        stdout = cast(TextIO, ClientStream(1, send, described_stdout))  # written as print does
        stderr = cast(TextIO, ClientStream(2, send, described_stderr))
        out = Output(stdout, stderr, json=args.json)
        job = asyncio.ensure_future(self.run_forwarded(module, args, out))
        gone = asyncio.ensure_future(reader.read(1))
        await asyncio.wait({job, gone}, return_when=asyncio.FIRST_COMPLETED)
        if not job.done():
            job.cancel()
            with contextlib.suppress(BaseException):
                await job
            return
        gone.cancel()
        self.served += 1
        writer.write(encoded({"exit": job.result()}))

    async def run_forwarded(self, module: ModuleType, args: argparse.Namespace, out: Output) -> int:
        """The command's exit code, run on the open session as it would run on its own: the
        session reopened (its progress lines), then its work; its errors told on `out`."""
        assert self.session is not None
        try:
            command: SessionCommand = module.session_command(args, out)
            with command.server or contextlib.nullcontext():
                self.switchboard.serve(command, out)
                try:
                    code = await checked(self._reopened_work(self.session, command, out))
                finally:
                    self.switchboard.serve(None, None)
        except EnvError as error:
            return out.failure(error)
        if command.keep_warm is not None:  # as a cold run with --keep-warm would leave a daemon
            self.idle_s = command.keep_warm
            out.err(kept_warm_note(command.keep_warm))
        return code

    @staticmethod
    async def _reopened_work(
        session: SessionController, command: SessionCommand, out: Output
    ) -> int:
        """What connecting does for a fresh command (the same progress lines): endpoints that
        went down are opened again, and the tools listed afresh; then the work, whose records
        the session does not keep (it may serve commands for hours)."""
        session.start_connecting(reopen=True)
        await connect(session, out)
        try:
            return await command.work(session, out)
        finally:
            session.forget_records()

    def servable(self, request: dict[str, Any]) -> tuple[ModuleType, argparse.Namespace] | None:
        """(the command's module, its parsed arguments) when this daemon can run the command
        line as the command would: `call` or `tools` on this very target (URLs and headers)
        from the same directory, without `--log-level`, `--trace` or `--protocol latest` (they
        concern the connection itself)."""
        argv = request.get("argv") or [""]
        if argv[0] not in WARM_COMMANDS or request.get("cwd") != self.cwd:
            return None
        parser = command_parser(argv[0], forwarded=True)
        try:
            args = parser.parse_args(argv[1:])
            target = target_from_args(args)
        except (ParseError, argparse.ArgumentError, EnvError):  # run cold, it says what is wrong
            return None
        if (
            args.log_level is not None
            or args.trace is not None
            or args.protocol != DEFAULT_PROTOCOL  # the session here spoke the handshake
            or not self.serves(target)
        ):
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


def take_lock(path: Path) -> IO[str] | None:
    """The lock of a target's daemon, held while it serves; None if another daemon has it."""
    lock = os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        return None
    return lock
