"""A session recorded as every front end records one: a controller given a recorder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import Env, ToolResult
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import Target
from fleet_tui.session.recorder import SessionRecorder


@asynccontextmanager
async def recorded(
    target: Target, path: Path, env_factory: Callable[[Target], Env] = make_env
) -> AsyncIterator[SessionController]:
    """A controller on `target`, connected, recording to `path`; closed (env and file) after."""
    recorder = SessionRecorder(path)
    controller = SessionController(target, env_factory, recorder=recorder)
    try:
        await controller.connect()
        yield controller
    finally:
        await controller.close()
        recorder.close()


async def call_tool(
    controller: SessionController, tool: str, arguments: dict[str, Any]
) -> ToolResult:
    """Make a call as the person does; its result (AssertionError, with why, when it raised)."""
    record = controller.add_record(tool, arguments)
    result = await controller.call(record)
    assert result is not None, record.message
    return result
