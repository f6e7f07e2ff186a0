"""A session opened for one piece of work, the way every front end that runs work on an env
opens it (headless commands, the warm-session daemon): `async with open_session(...)` creates
the controller, connects it (its progress and the env's warnings told to `notes`), yields it,
and always closes it — after an error, and when cancelled (Ctrl+C, a signal) — telling the
warnings closing raised and how to attach again to an instance kept running (`--keep`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Protocol

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import Env, EnvInfo
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.server_requests import AnswersServers
from fleet_tui.envs.targets import Target
from fleet_tui.session_records import EnvClosed, Progress, SessionEvent

if TYPE_CHECKING:
    from fleet_tui.session.recorder import SessionRecorder


class Notes(Protocol):
    """Where a session's progress lines, warnings and notes are told (a command's stderr)."""

    def err(self, text: str) -> None: ...

    def warn(self, text: str) -> None: ...


@asynccontextmanager
async def open_session(
    target: Target,
    answers: AnswersServers | None,
    *,
    notes: Notes,
    recorder: SessionRecorder | None = None,
    env_factory: Callable[[Target], Env] = make_env,
    listeners: Iterable[Callable[[SessionEvent], None]] = (),
    log_level: str | None = None,
    list_tools: bool = True,
) -> AsyncIterator[SessionController]:
    """The controller of `target`, connected; closed when the block ends, however it ends.
    `answers` answers what servers ask; `listeners` hear the session's events from the start;
    `log_level` is asked of the servers as they open; `list_tools`: see `connect`.
    `recorder` records the session (it hears the controller's events)."""
    session = SessionController(target, env_factory, answers, recorder=recorder)
    closed: list[EnvInfo] = []

    def hear(event: SessionEvent) -> None:
        if isinstance(event, Progress):
            notes.err(event.line)
        elif isinstance(event, EnvClosed):
            closed.append(event.info)

    session.subscribe(hear)
    for listener in listeners:
        session.subscribe(listener)
    if log_level is not None:
        await session.set_log_level(log_level)
    try:
        await connect(session, notes, list_tools=list_tools)
        yield session
    finally:
        await session.close()
        for problem in session.close_problems:
            notes.warn(problem)
        for info in closed:
            tell_if_kept(info, notes)


async def connect(session: SessionController, notes: Notes, *, list_tools: bool = True) -> None:
    """Connect (or reopen) the session, then tell every warning its env has."""
    await session.connect(list_tools=list_tools)
    for warning in session.warnings():
        notes.warn(warning)


def tell_if_kept(info: EnvInfo, notes: Notes) -> None:
    """How to attach again to an instance created here and kept running (`--keep`)."""
    if not (info.keep and info.created_here and info.instance_id):
        return
    if info.kind == "local":
        notes.warn(
            f"instance {info.instance_id} lived on the embedded host, which stopped with this "
            "command; to keep instances, run `fleet-tui local serve` and pass --base-url "
            "(with FLEET_API_KEY set to the key it prints)"
        )
        return
    where = f" --base-url {info.base_url}" if info.base_url else ""
    notes.err(
        f"kept instance {info.instance_id}; attach with: fleet-tui --instance "
        f"{info.instance_id}{where}"
    )
