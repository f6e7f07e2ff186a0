"""A recorded session standing in for its env, so the app can play it back with nothing live
(`fleet-tui replay SESSION --play`): the player cues each recorded call before making it, and
the call is answered with its recorded result; each reset gets the next recorded reset. Any
other call (the app's own screenshot on connecting, or the person's) gets the screen as last
played for a screenshot, and a plain error otherwise. Nothing is ever sent anywhere.
"""

from __future__ import annotations

from typing import Any

from fleet_tui.envs.base import (
    COMPUTER_TOOL,
    EndpointState,
    EndpointStatus,
    EnvInfo,
    Progress,
    ResetResult,
    TextBlock,
    Tool,
    ToolResult,
)
from fleet_tui.session.events import ResetEvent
from fleet_tui.session.reader import Session, Step

NOT_RECORDED = "This call is not in the recording (a playback answers only the calls it holds)."


class PlaybackEnv:
    """The Env protocol over a recorded session."""

    def __init__(self, session: Session) -> None:
        self.session = session
        connect = session.connect()
        self.info = (
            connect.info.model_copy(update={"created_here": False, "keep": False})
            if connect and connect.info
            else EnvInfo(kind=connect.target.kind if connect and connect.target else "mcp")
        )
        self.steps = [step for step in session.steps() if step.result is not None]
        """The recorded calls that have a result: what a playback plays."""
        self.cue: Step | None = None
        """The recorded step the next call plays (set by the player just before it)."""
        self._tool_names = list(connect.tools) if connect else []
        self._resets = [e for e in session.events if isinstance(e, ResetEvent)]
        self._screen: ToolResult | None = None

    async def connect(self, progress: Progress | None = None) -> None:
        if progress:
            progress(f"playing back {self.session.path.name} (nothing is sent to any env)")

    async def list_tools(self, refresh: bool = False) -> list[Tool]:
        names = dict.fromkeys([*self._tool_names, *(step.call.tool for step in self.steps)])
        return [Tool(name=name, description="(from the recording)", endpoint="playback")
                for name in names]  # fmt: skip

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        step, self.cue = self.cue, None
        if step is not None and (step.call.tool, step.call.arguments) == (name, arguments):
            assert step.result is not None
            result = self.session.tool_result(step.result.result)
            if result.images():
                self._screen = result
            return result
        if name == COMPUTER_TOOL and arguments.get("action") == "screenshot":
            screen = self._screen or self._first_screen()
            if screen is not None:
                return screen
        return ToolResult(is_error=True, blocks=[TextBlock(text=NOT_RECORDED)])

    def _first_screen(self) -> ToolResult | None:
        """The first recorded picture: the screen as the recording began."""
        for step in self.steps:
            assert step.result is not None
            if step.call.tool == COMPUTER_TOOL and step.result.result.blocks:
                result = self.session.tool_result(step.result.result)
                if result.images():
                    return result
        return None

    async def reset(
        self, seed: int | None = None, *, options: dict[str, Any] | None = None
    ) -> ResetResult:
        if not self._resets:
            return ResetResult(message="No more resets in the recording.")
        event = self._resets.pop(0)
        result = self.session.tool_result(event.result) if event.result else None
        return ResetResult(
            success=event.success,
            message=event.message,
            seed=event.seed,
            result=result,
            options=event.options,
            latency_s=result.latency_s if result else 0.0,
        )

    def endpoints(self) -> list[EndpointStatus]:
        return [EndpointStatus(url="playback", state=EndpointState.UP,
                               tool_count=len(self._tool_names))]  # fmt: skip

    def warnings(self) -> list[str]:
        return list(self.session.problems)

    async def close(self) -> None:
        return None
