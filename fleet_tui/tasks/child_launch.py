"""Start a verifier's child process (`python -m module args` in a session of its own): forked
by the warm zygote (`zygote.py`) where it can be, spawned afresh otherwise.

A spawned child imports fleet-python again (about 0.25 s of CPU); one forked from the zygote
has it already. The zygote is started on first use, one per fleet-tui process, and started
again if it died. Where fork is missing, or the zygote cannot be started or does not answer,
the child is spawned as before, and a warning says why (after a few failures in a row,
every child is).

Either way the caller gets a `ChildProcess`: its pid is its process group's, its stdio are
asyncio streams, and `wait`, `terminate` and `returncode` work as on an asyncio subprocess.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from typing import Protocol

from fleet_tui.process_tree import kill_group

logger = logging.getLogger(__name__)

ZYGOTE_ANSWER_S = 120.0
"""How long a child forked by the zygote may take to say its pid (the zygote's imports count:
the first request waits for them)."""
SWITCH = "FLEET_TUI_VERIFIER_ZYGOTE"
"""Set to `off`, verifier children are spawned afresh (to compare, or to rule the zygote out)."""
MAX_FAILURES = 3
"""Requests in a row the zygote may fail before every verifier is spawned instead."""
STOP_GRACE_S = 1.0
"""How long the zygote may take to end once its control socket is closed."""


class ChildProcess(Protocol):
    """What callers use of a child process, spawned or forked."""

    pid: int
    stdin: asyncio.StreamWriter | None
    stdout: asyncio.StreamReader | None
    stderr: asyncio.StreamReader | None

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...

    def terminate(self) -> None: ...


async def start_child(
    module: str, *args: str, stdin: int = subprocess.DEVNULL, env: dict | None = None
) -> ChildProcess:
    """`python -m module args` in a child process of its own session, stdout and stderr piped
    (stdin too if `stdin` is PIPE): forked by the zygote if it can be, else spawned."""
    request = {"module": module, "args": list(args), "env": dict(env or os.environ)}
    if ZYGOTE.usable():
        try:
            return await ZYGOTE.fork(request, piped_stdin=stdin == subprocess.PIPE)
        except ZygoteUnavailable as why:
            ZYGOTE.failed(str(why))
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        stdin=stdin,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        start_new_session=True,
    )


class ZygoteUnavailable(Exception):
    """The zygote could not start a child; the message says why."""


class ForkedChild:
    """A child the zygote forked, told apart from the zygote's other children by its channel:
    the zygote writes `exit CODE` there when the child has ended."""

    def __init__(
        self,
        pid: int,
        streams: tuple[asyncio.StreamWriter | None, asyncio.StreamReader, asyncio.StreamReader],
        channel: tuple[asyncio.StreamReader, asyncio.StreamWriter],
    ) -> None:
        self.pid = pid
        self.stdin: asyncio.StreamWriter | None = streams[0]
        self.stdout: asyncio.StreamReader | None = streams[1]
        self.stderr: asyncio.StreamReader | None = streams[2]
        self._exit = asyncio.ensure_future(self._read_exit(*channel))

    @property
    def returncode(self) -> int | None:
        return self._exit.result() if self._exit.done() else None

    async def wait(self) -> int:
        return await asyncio.shield(self._exit)

    def terminate(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGTERM)

    async def _read_exit(self, channel: asyncio.StreamReader, ours: asyncio.StreamWriter) -> int:
        try:
            line = await channel.readline()
        finally:
            ours.close()
        try:
            return int(line.removeprefix(b"exit "))
        except ValueError:  # the zygote died: no one will reap the child, so end it now
            kill_group(self.pid)
            return -signal.SIGKILL


class Zygote:
    """The zygote process of this fleet-tui process, and the end of its control socket."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.control: socket.socket | None = None
        self.failures = 0
        """Requests in a row the zygote could not start a child for."""
        self._lock = threading.Lock()

    def usable(self) -> bool:
        if os.environ.get(SWITCH) == "off":
            return False
        if not hasattr(os, "fork"):
            if self.failures < MAX_FAILURES:
                logger.warning("verifiers start as fresh processes (slower): no fork here")
                self.failures = MAX_FAILURES
            return False
        return self.failures < MAX_FAILURES

    def failed(self, why: str) -> None:
        """Say why this request's child is spawned instead; after MAX_FAILURES in a row, every
        child is."""
        self.failures += 1
        self.stop()
        every = "; from now on every verifier is" if self.failures >= MAX_FAILURES else ""
        logger.warning("a verifier starts as a fresh process (slower): %s%s", why, every)

    async def fork(self, request: dict, *, piped_stdin: bool) -> ForkedChild:
        """Have the zygote fork a child for `request`; ZygoteUnavailable if it cannot."""
        stdin_ours, stdin_theirs = socket.socketpair()
        stdout, stderr = os.pipe(), os.pipe()
        channel, channel_theirs = socket.socketpair()
        ours = [stdin_ours.detach(), stdout[0], stderr[0]]
        theirs = [stdin_theirs.detach(), stdout[1], stderr[1], channel_theirs.detach()]
        try:
            try:
                if not piped_stdin:
                    null = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(null, theirs[0])
                    os.close(null)
                self._send(theirs)
            finally:
                _close(theirs)  # the child's now: the channel ends if the zygote dies
            channel.setblocking(False)
            asked = json.dumps({**request, "cwd": os.getcwd()}).encode()
            pid = await asyncio.wait_for(_handshake(channel, asked), ZYGOTE_ANSWER_S)
        except BaseException as error:  # no child, or one that fails on its closed streams
            _close(ours)
            channel.close()
            if isinstance(error, TimeoutError):
                raise ZygoteUnavailable("the verifier zygote did not answer in time") from None
            if isinstance(error, OSError):
                raise ZygoteUnavailable(f"the verifier zygote: {error}") from None
            raise
        self.failures = 0
        return ForkedChild(pid, *await _streams(ours, channel, piped_stdin))

    def _send(self, fds: list[int]) -> None:
        """Send one request's descriptors, starting the zygote first (again if it died)."""
        with self._lock:
            for attempt in (1, 2):
                if self.process is None or self.process.poll() is not None:
                    if self.process is not None:
                        logger.warning("the verifier zygote exited; starting it again")
                    self._start()
                assert self.control is not None  # started above
                try:
                    socket.send_fds(self.control, [b"r"], fds)
                    return
                except OSError as error:
                    self.stop()
                    if attempt == 2:
                        raise ZygoteUnavailable(f"the verifier zygote: {error}") from None

    def _start(self) -> None:
        self.stop()
        control, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "fleet_tui.tasks.zygote"],
                stdin=theirs.fileno(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as error:
            control.close()
            raise ZygoteUnavailable(f"cannot start the verifier zygote: {error}") from None
        finally:
            theirs.close()
        self.control = control

    def stop(self) -> None:
        """End the zygote: it sees its control socket close and kills the children still
        running (killed if it does not end within STOP_GRACE_S), and is reaped."""
        if self.control is not None:
            self.control.close()
            self.control = None
        if self.process is not None:
            try:
                self.process.wait(STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                self.process.kill()  # the children we wait for see their channels end
                self.process.wait()
        self.process = None


async def _handshake(channel: socket.socket, request: bytes) -> int:
    """Send the child its request, up to the end of what we write (it reads to there), and
    read its first line: its pid (a byte at a time: the zygote's `exit` line may follow)."""
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(channel, request)
    channel.shutdown(socket.SHUT_WR)
    line = b""
    while not line.endswith(b"\n"):
        byte = await loop.sock_recv(channel, 1)
        if not byte:
            break
        line += byte
    try:
        return int(line)
    except ValueError:
        raise ZygoteUnavailable("the verifier zygote did not start the child") from None


async def _streams(fds: list[int], channel: socket.socket, piped_stdin: bool) -> tuple:
    """Asyncio streams over our ends: stdin's writer (None unless piped), stdout's and
    stderr's readers (pipes: their transports close at their end), and the channel's."""
    loop = asyncio.get_running_loop()
    stdin = None
    if piped_stdin:
        _, stdin = await asyncio.open_unix_connection(sock=socket.socket(fileno=fds[0]))
    else:
        os.close(fds[0])
    readers = []
    for fd in fds[1:]:
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        pipe = open(fd, "rb", 0)  # noqa: SIM115  (its transport closes it at its end)
        await loop.connect_read_pipe(lambda: protocol, pipe)  # noqa: B023  (called at once)
        readers.append(reader)
    return (stdin, *readers), await asyncio.open_unix_connection(sock=channel)


def _close(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


ZYGOTE = Zygote()
"""The one zygote of this process."""
atexit.register(ZYGOTE.stop)  # reaped here, so the CPU it and its children used is counted
