"""The stdio transport: an MCP server run as a child process, spoken to over its stdin/stdout.

It replaces the mcp SDK's `stdio_client`, whose messages it gives the session (the same
environment for the server, one JSON-RPC message a line, the spec's shutdown: stdin closed,
then SIGTERM, then SIGKILL), for two reasons:

- the server runs under `fleet_tui.stdio_supervisor`, a subreaper between fleet-tui and the
  server: every process the server starts (in its group, after `setsid()`, daemonized) is
  killed when the server exits, when the endpoint closes and when fleet-tui ends, even by
  SIGKILL (the supervisor's lifeline pipe then reads as closed);
- stdout is read as bytes in linear time, one reply capped at `MAX_REPLY_BYTES`, and a reply
  that cannot be read fails its call only (`envs/stdio_lines.py`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TextIO

import anyio

from fleet_tui.envs.base import EnvError

READ_CHUNK = 65536
WRITER_FLUSH_S = 0.5
"""How long messages the session already wrote may take to reach the server at closing."""
SERVER_EXIT_GRACE_S = 2.0
"""How long the server has to exit on its own once its stdin is closed (the SDK's grace)."""
SUPERVISOR_STOP_S = 10.0
"""How long the supervisor may take to stop the server and sweep what it started (its own
SIGTERM grace and sweep are shorter); past it the supervisor is killed."""
EXIT_POLL_S = 0.01
SOURCE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding the fleet_tui package, so that the supervisor imports this very copy."""


def check_command(command: str, path: str | None) -> None:
    """Raise EnvError, in plain words, when `command` cannot be run (as `execvp` looks it up
    on `path`)."""
    if shutil.which(command, path=path) is not None:
        return
    if os.sep in command:
        places = [Path(command)]
    else:
        places = [Path(folder or ".", command) for folder in (path or "").split(os.pathsep)]
    if any(place.exists() for place in places):
        raise EnvError(f"cannot start {command!r}: not executable")
    raise EnvError(f"cannot start {command!r}: no such command")


@contextlib.asynccontextmanager
async def stdio_streams(argv: tuple[str, ...], errlog: TextIO) -> AsyncIterator[tuple[Any, Any]]:
    """The (read, write) streams of a session with the server `argv` (its stderr to
    `errlog`), run under the supervisor; the server and all it started are stopped on
    leaving."""
    from mcp.client.stdio import get_default_environment
    from mcp.shared.message import SessionMessage

    from fleet_tui.envs.stdio_lines import LineSplitter, Replies

    env = get_default_environment()
    check_command(argv[0], env.get("PATH"))
    lifeline, keep_alive = os.pipe()
    try:
        process = await anyio.open_process(
            [sys.executable, "-m", "fleet_tui.stdio_supervisor", str(lifeline), *argv],
            env=env | {"PYTHONPATH": SOURCE_ROOT},
            stderr=errlog,
            start_new_session=True,
            pass_fds=(lifeline,),
        )
    except BaseException:
        os.close(keep_alive)
        raise
    finally:
        os.close(lifeline)
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout
    to_session, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_session = anyio.create_memory_object_stream[SessionMessage](0)

    def tell_stray(problem: str) -> None:  # kept with its stderr: a timeout then names it
        with contextlib.suppress(OSError, ValueError):
            errlog.write(f"{problem}\n")
            errlog.flush()

    replies = Replies(on_stray=tell_stray)
    writer_done = anyio.Event()

    async def read_stdout() -> None:
        lines = LineSplitter()
        delivering = True
        with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, OSError):
            async with to_session:
                while True:
                    try:
                        chunk = await stdout.receive(READ_CHUNK)
                    except anyio.EndOfStream:
                        if delivering and (rest := lines.rest()) is not None:
                            await deliver(rest)
                        raise
                    for line in lines.feed(chunk):
                        # Once the session is gone the rest is read and dropped, so that a
                        # server writing a long reply is not stuck and can exit.
                        delivering = delivering and await deliver(line)

    async def deliver(line: Any) -> bool:
        """Give the session the message of `line`; False once it no longer listens."""
        message = replies.message(line)
        if message is None:
            return True
        try:
            await to_session.send(message)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return False
        return True

    async def write_stdin() -> None:
        try:
            async with from_session:
                async for session_message in from_session:
                    replies.sent(session_message.message)
                    text = session_message.message.model_dump_json(
                        by_alias=True, exclude_unset=True
                    )
                    await stdin.send((text + "\n").encode())
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await to_session.aclose()  # the session sees the connection end
        finally:
            writer_done.set()

    async def stop() -> None:
        """Stdin closed, a grace for the server to exit, then the lifeline cut (the
        supervisor sends SIGTERM, then kills what is left), then the supervisor killed."""
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(WRITER_FLUSH_S):
            await writer_done.wait()
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await stdin.aclose()
        await _exited(process, SERVER_EXIT_GRACE_S)
        os.close(keep_alive)
        if not await _exited(process, SUPERVISOR_STOP_S):
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await _exited(process, SERVER_EXIT_GRACE_S)
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await stdout.aclose()
        for stream in (read_stream, write_stream, to_session, from_session):
            await stream.aclose()

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(read_stdout)
        tasks.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):  # a cancelled caller must not leak the server
                await stop()
            tasks.cancel_scope.cancel()


async def _exited(process: Any, timeout: float) -> bool:
    """Whether the process exited within `timeout` (its returncode, not `wait()`, which
    also waits for the pipes to close)."""
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(EXIT_POLL_S)
    return process.returncode is not None
