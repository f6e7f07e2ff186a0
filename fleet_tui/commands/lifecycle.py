"""Run a headless command on a session (`session_open.open_session`): connect, work, and always
close — after an error, on Ctrl+C (asyncio.run cancels the main task) and on SIGTERM or SIGHUP
(handled the same way here). A command is a `SessionCommand`: its work, `work(session, out)`,
asks the session (`SessionController`) and writes to `out`; a warm-session daemon runs the
same command on the session it holds open (`warm_daemon.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fleet_tui.commands.output import Output
from fleet_tui.envs.base import Env, EnvError
from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.stop_signals import stop_task_on_signals
from fleet_tui.text import describe_error, flat

if TYPE_CHECKING:
    from fleet_tui.commands.server_output import ServerOutput
    from fleet_tui.controller import SessionController
    from fleet_tui.envs.server_requests import AnswersServers
    from fleet_tui.session_records import SessionEvent

Work = Callable[["SessionController", Output], Awaitable[int]]


@dataclass
class SessionCommand:
    """What a headless command does on a session, and how the session is opened for it."""

    target: Target
    work: Work
    answers: AnswersServers | None = None
    """What servers that ask are answered (default: no roots, elicitation and sampling
    declined)."""
    server: ServerOutput | None = None
    """What servers say on their own, shown (`--log-level`, `--trace`, a call's progress)."""
    env_options: dict[str, Any] = field(default_factory=dict)
    """For the adapter (`make_env`): an OpenEnv session's first `seed`, say."""
    list_tools: bool = True
    """False for commands that need no tools (listing is a step on an OpenEnv session)."""
    keep_warm: float | None = None
    """Seconds a warm-session daemon holds the target's session open for the next command
    (`fleet_tui/warm`)."""

    def listeners(self) -> list[Callable[[SessionEvent], None]]:
        return [self.server.hear] if self.server is not None else []


def run_on_session(command: SessionCommand, out: Output) -> int:
    """Open a session on the command's target, run its work, close; returns the exit code.
    With `keep_warm`, a warm-session daemon is left holding the target's session open."""
    with command.server or contextlib.nullcontext():
        code = asyncio.run(_run(command, out))
    if command.keep_warm is not None:
        from fleet_tui.warm.start import kept_warm_note, start_daemon

        if problem := start_daemon(command.target, command.keep_warm):
            out.warn(problem)
        else:
            out.err(kept_warm_note(command.keep_warm))
    return code


async def _run(command: SessionCommand, out: Output) -> int:
    with stop_task_on_signals() as stop:
        try:
            return await checked(_work_on_session(command, out))
        except asyncio.CancelledError:
            if stop.exit_code is None:
                raise
            out.err("fleet-tui: terminated")
            return stop.exit_code


async def _work_on_session(command: SessionCommand, out: Output) -> int:
    from fleet_tui.commands.client_options import HeadlessAnswers
    from fleet_tui.session_open import open_session

    async with open_session(
        command.target,
        command.answers or HeadlessAnswers([], out=out),
        notes=out,
        env_factory=_env_factory(command.env_options, out),
        listeners=command.listeners(),
        log_level=command.server.level if command.server is not None else None,
        list_tools=command.list_tools,
    ) as session:
        return await command.work(session, out)


def _env_factory(options: dict[str, Any], out: Output) -> Callable[[Target], Env]:
    """`make_env` with the command's options; a stdio server's stderr goes to ours (the app
    keeps it for its endpoint view)."""
    from fleet_tui.envs.factory import make_env

    def factory(target: Target) -> Env:
        if isinstance(target, McpTarget):
            return make_env(target, child_stderr=out.stderr, **options)
        return make_env(target, **options)

    return factory


async def checked(work: Awaitable[int]) -> int:
    """`work`'s exit code; an error becomes one clean EnvError line (its text may come from
    the env)."""
    try:
        return await work
    except BrokenPipeError:  # the reader of stdout went away (`| head`): cli.main ends quietly
        raise
    except EnvError as error:
        raise EnvError(flat(error.message), exit_code=error.exit_code) from None
    except Exception as error:
        raise EnvError(flat(f"unexpected error: {describe_error(error)}")) from None
