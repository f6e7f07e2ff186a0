"""An Env wrapper that records connect, reset and every call (before it is sent) and result.

It speaks only the `Env` protocol; the wrapped env's capabilities (`reconnect`, SQLite
resources, ...) are reached, unrecorded, through `envs.capabilities.unwrapped`.
"""

from __future__ import annotations

from typing import Any

from fleet_tui.envs.base import Env, EnvError, EnvInfo, Progress, ResetResult, ToolResult
from fleet_tui.envs.capabilities import Episodic, unwrapped
from fleet_tui.envs.targets import Target
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.text import named_error


class RecordingEnv:
    """Wraps `env`, writing its events to `recorder`."""

    def __init__(self, env: Env, recorder: SessionRecorder, target: Target | None = None) -> None:
        self.inner: Env = env
        self.recorder = recorder
        self.target = target

    @property
    def info(self) -> EnvInfo:
        return self.inner.info

    async def connect(self, progress: Progress | None = None) -> None:
        """Connect and record it, then the reset an episodic env opened its session with."""
        await self.inner.connect(progress)
        tools = await self.inner.list_tools()
        self.recorder.connect(self.target, self.inner.info, [t.name for t in tools])
        inner = unwrapped(self.inner)
        if isinstance(inner, Episodic) and inner.last_reset is not None:
            self.recorder.reset(inner.last_reset.seed, inner.last_reset)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        seq = self.recorder.call(name, arguments)
        try:
            result = await self.inner.call_tool(name, arguments)
        except EnvError as error:
            self.recorder.error(error.message, call_seq=seq)
            raise
        except BaseException as error:
            self.recorder.error(named_error(error), call_seq=seq)
            raise
        self.recorder.result(seq, result)
        return result

    async def reset(
        self, seed: int | None = None, *, options: dict[str, Any] | None = None
    ) -> ResetResult:
        result = await self.inner.reset(seed, options=options)
        self.recorder.reset(seed, result, options=options)
        return result

    async def list_tools(self, refresh: bool = False):
        return await self.inner.list_tools(refresh)

    def endpoints(self):
        return self.inner.endpoints()

    def warnings(self) -> list[str]:
        return self.inner.warnings()

    async def close(self) -> None:
        await self.inner.close()
