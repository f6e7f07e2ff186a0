"""Playing a recorded session back in the app (`fleet-tui replay SESSION --play`): with no env
(`session/playback_env.py` answers from the recording), its resets, calls, results, pictures and
verdicts appear in the History and result view at the recorded pace, N times faster with
`--speed N`, or one at a time (`--speed 0`, or f12 after f11 pauses). For demos without a live
env, and for reviewing an agent's run. The status line says it is a playback.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from rich.text import Text

from fleet_tui.controller import Caller, CallRecord, SessionController
from fleet_tui.envs.base import Env, EnvError, ToolResult
from fleet_tui.envs.targets import Target
from fleet_tui.session.events import CallEvent, ResetEvent, VerifyEvent
from fleet_tui.session.playback_env import PlaybackEnv
from fleet_tui.session.reader import Session, Step, load_session
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.keymap import Extension
from fleet_tui.ui.widgets.verdict import verdict_headline, verdict_text

LONGEST_PAUSE_S = 5.0
"""A longer pause in the recording (someone reading, or away) plays as this long."""

Played = ResetEvent | CallEvent | VerifyEvent


class PlaybackHost(AppServices, Protocol):
    """What a playback needs of the app."""

    @property
    def controller(self) -> SessionController: ...

    extension_actions: dict[Extension, Callable[[], Any]]
    status_notes: list[Callable[[], Text]]
    shutting_down: bool

    async def show_call(self, record: CallRecord, result: ToolResult | None) -> None:
        """Awaited, not asked by a message: the next event plays once this one is shown."""

    def refresh_status(self) -> None: ...


@dataclass
class Playback:
    session: Session
    speed: float = 1.0
    """How many times faster than recorded; 0 plays one step per f12."""
    paused: bool = False
    played: int = 0
    steps: list[Played] = field(default_factory=list)
    env: PlaybackEnv | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _step_once: bool = False
    _recorded: dict[int, Step] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._recorded = {step.call.seq: step for step in self.session.steps() if step.result}
        self.steps = [
            e
            for e in self.session.events
            if isinstance(e, ResetEvent | VerifyEvent)
            or (isinstance(e, CallEvent) and e.seq in self._recorded)
        ]
        self.paused = self.speed == 0

    @classmethod
    def from_args(cls, args: Any) -> Playback | None:
        path = getattr(args, "play_session", None)
        if path is None:
            return None
        speed = float(getattr(args, "speed", 1.0))
        if speed < 0:
            raise EnvError("--speed must be 0 (step by step) or more")
        return cls(load_session(path), speed=speed)

    def env_factory(self, target: Target) -> Env:
        self.env = PlaybackEnv(self.session)
        return self.env

    async def install(self, app: PlaybackHost) -> None:
        app.status_notes.append(self.status_note)
        app.extension_actions[Extension.AGENT_PAUSE] = lambda: self.toggle_pause(app)
        app.extension_actions[Extension.AGENT_STEP] = lambda: self.step(app)
        app.run_worker(self._play(app), group="playback", exit_on_error=False)

    def status_note(self) -> Text:
        state = "paused (f11 plays, f12 steps)" if self.paused else f"at {self.speed:g}x"
        if self.played == len(self.steps):
            state = "finished"
        return Text(f"  ▶ playback {self.played}/{len(self.steps)} {state}", style="bold magenta")

    def toggle_pause(self, app: PlaybackHost) -> None:
        self.paused = not self.paused
        self._wake.set()
        app.refresh_status()

    def step(self, app: PlaybackHost) -> None:
        self.paused, self._step_once = True, True
        self._wake.set()
        app.refresh_status()

    async def _play(self, app: PlaybackHost) -> None:
        while not app.controller.connected:
            await asyncio.sleep(0.05)
        previous: datetime | None = None
        for event in self.steps:
            at = _when(event.at)
            gap = (at - previous).total_seconds() if at and previous else 0.0
            previous = at or previous
            await self._wait_turn(min(max(gap, 0.0), LONGEST_PAUSE_S))
            if app.shutting_down:
                return
            await self._show(app, event)
            self.played += 1
            app.refresh_status()
        app.notify(f"Playback finished: {len(self.steps)} steps of {self.session.path.name}.")

    async def _wait_turn(self, gap_s: float) -> None:
        """Until the step's turn: its gap at this speed, or f12 (one step) when paused."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (gap_s / self.speed if self.speed else 0.0)
        while True:
            if self._step_once:
                self._step_once = False
                return
            if not self.paused and loop.time() >= deadline:
                return
            self._wake.clear()
            timeout = None if self.paused else deadline - loop.time()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def _show(self, app: PlaybackHost, event: Played) -> None:
        session = app.controller
        if isinstance(event, CallEvent):
            if self.env is not None:
                self.env.cue = self._recorded[event.seq]
            record = session.add_record(event.tool, event.arguments, caller=Caller.PLAYBACK)
            await app.show_call(record, await session.call(record))
        elif isinstance(event, ResetEvent):
            record, outcome = await session.reset(event.seed, event.options, caller=Caller.PLAYBACK)
            await app.show_call(record, outcome.result if outcome else None)
        else:
            verdict = event.verdict
            after = f"#{len(session.records)}" if session.records else None
            session.record_verdict(
                verdict,
                after=after,
                headline=verdict_headline(verdict),
                text=verdict_text(verdict, after=after).plain,
                elapsed_s=(verdict.execution_time_ms or 0) / 1000,
            )


def _when(at: str) -> datetime | None:
    try:
        return datetime.fromisoformat(at)
    except ValueError:
        return None
