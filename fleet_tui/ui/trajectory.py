"""Stepping through an agent's transcript in the app: the Trajectory pane and its actions.

`TrajectoryReplay.from_args(args)` reads `--trajectory FILE` (a plain error if it is no
transcript); `install(app)` registers the actions that open a transcript (the palette's "Open
an agent trajectory…") and show its pane, and opens the one given. Each step is made through
the session controller, like a call from the form: it shows in the history and the result
view, and the screenshot pane follows. Its result is then judged against the transcript's
(`TrajectoryRun.judge`). Starting over resets the env (any reset starts the transcript over);
the verifier is the Tasks pane's (f8), and its verdict shows in the pane.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rich.text import Text
from textual.screen import Screen
from textual.signal import Signal
from textual.widget import Widget

from fleet_tui.text import name_line, one_line
from fleet_tui.ui.calls import ShowResult
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.keymap import Extension

if TYPE_CHECKING:  # the session's models load after the app's first frame; the rest when a
    # transcript is first opened
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import ResetResult, Tool
    from fleet_tui.session.trajectory_run import TrajectoryRun
    from fleet_tui.session_records import SessionEvent
    from fleet_tui.ui.widgets.trajectory_pane import TrajectoryPane, TrajectorySteps

NO_VERIFIER = (
    "No verifier here: open the app with --tasks FILE (and start a task) or --verifier FILE.py."
)


class TrajectoryHost(AppServices, Protocol):
    """What the Trajectory pane needs of the app."""

    @property
    def controller(self) -> SessionController: ...

    env_ready: Signal[list[Tool]]
    env_reset: Signal[ResetResult]
    extension_actions: dict[Extension, Callable[[], Any]]

    @property
    def call_running(self) -> bool: ...

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...

    async def run_call(self, record: CallRecord) -> None:
        """Awaited, not asked by a message: the step is judged on the call's result."""

    async def run_queued(self) -> None: ...

    def start_reset(self, seed: int | None = None) -> None: ...

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> Any: ...

    def query_one(self, selector: Any) -> Any: ...


@dataclass
class TrajectoryReplay:
    run: TrajectoryRun | None = None
    """The transcript being stepped through."""
    pane: TrajectoryPane | None = None
    app: TrajectoryHost = field(init=False)

    @classmethod
    def from_args(cls, args: Any) -> TrajectoryReplay:
        """`--trajectory FILE` (optional)."""
        path = getattr(args, "trajectory", None)
        if not path:
            return cls()
        from fleet_tui.session.trajectory_run import TrajectoryRun

        return cls(run=TrajectoryRun.load(path))

    async def install(self, app: TrajectoryHost) -> None:
        self.app = app
        app.extension_actions[Extension.OPEN_TRAJECTORY] = self.ask_path
        app.extension_actions[Extension.SHOW_TRAJECTORY] = self.show_pane
        app.controller.subscribe(self._session_event)
        if self.run is not None:
            await self.open(self.run)

    # -- opening ---------------------------------------------------------------------------------

    def ask_path(self) -> None:
        from fleet_tui.ui.screens.trajectory_screen import TrajectoryScreen

        self.app.push_screen(TrajectoryScreen(), self._chosen)

    async def _chosen(self, run: TrajectoryRun | None) -> None:
        if run is not None:
            await self.open(run)

    async def open(self, run: TrajectoryRun) -> None:
        """Show `run` in the pane (added the first time), its names mapped onto the env's."""
        app = self.app
        self.run = run
        if self.pane is None:
            from fleet_tui.ui.widgets.trajectory_pane import TrajectoryPane

            self.pane = TrajectoryPane(run, on_action=self._action, id="trajectory-pane")
            await app.add_sidebar_pane("Trajectory", self.pane, "pane-trajectory")
            app.env_ready.subscribe(self.pane, self._env_ready)
            app.env_reset.subscribe(self.pane, self._env_reset)
        else:
            self.pane.show_run(run)
        if app.controller.tools:  # (now: tools listed while the pane was added are not missed)
            self._env_ready(app.controller.tools)
        self.app.call_after_refresh(self.show_pane)  # its tab laid out, to scroll it into view

    def show_pane(self) -> None:
        if self.pane is None:
            self.app.notify("No trajectory open: ctrl+p, Open an agent trajectory…")
            return
        from fleet_tui.ui.widgets.trajectory_pane import TrajectorySteps

        self.app.show_sidebar_pane("pane-trajectory")
        self.pane.query_one(TrajectorySteps).focus()

    # -- what the session did --------------------------------------------------------------------

    def _env_ready(self, tools: list[Tool]) -> None:
        if self.run is not None and self.pane is not None:
            self.run.map_tools([tool.name for tool in tools])
            self.pane.show_steps()

    def _env_reset(self, _outcome: ResetResult) -> None:
        """A fresh env: the transcript starts over."""
        if self.run is not None and self.pane is not None:
            self.run.restart()
            self.pane.show_steps(highlight=0)
            self.pane.show_verdict(Text("verifier: not run since the reset", style="dim"))

    def _session_event(self, event: SessionEvent) -> None:
        """A verdict (the Tasks pane's verifier ran) shows under the steps."""
        from fleet_tui.controller import CallAdded, CallStatus

        if not (isinstance(event, CallAdded) and event.record.tool == "<verify>"):
            return
        if self.pane is None or not self.pane.is_mounted:
            return
        record = event.record
        style = "bold green" if record.status == CallStatus.PASS else "bold red"
        text = Text("verifier: ", style="dim")
        text.append(one_line(record.message, 80), style=style)
        text.append(f" after {self._after(record)}", style="dim")
        self.pane.show_verdict(text)

    def _after(self, record: CallRecord) -> str:
        """The step the verdict followed, numbered as the steps are (the history's number
        beside it); the history's words when no step was replayed before it."""
        replayed = [
            step
            for step in (self.run.steps if self.run is not None else [])
            if step.record is not None and step.record < record.number
        ]
        if not replayed:
            return one_line(str(record.arguments.get("after")), 40)
        step = max(replayed, key=lambda step: step.record or 0)
        return f"step #{step.call.seq} {name_line(step.call.tool, 30)} (history #{step.record})"

    # -- the pane's keys -------------------------------------------------------------------------

    def _action(self, chosen: TrajectorySteps.Chosen) -> None:
        if chosen.action == "open":
            self.ask_path()
        elif chosen.action == "verify":
            self.verify()
        elif chosen.action == "show_step" and chosen.index is not None:
            self.app.run_worker(self._show_step(chosen.index), group="trajectory-show")
        elif self._can_call():
            if chosen.action == "start_over":
                self.app.start_reset()
            elif chosen.action in ("step", "run_to_end"):
                to_end = chosen.action == "run_to_end"
                self.app.run_worker(self._steps(to_end), group="call", exit_on_error=False)

    def _can_call(self) -> bool:
        if not self.app.controller.connected:
            self.app.notify("Not connected.", severity="error")
            return False
        if self.app.call_running:
            self.app.notify("A call is running: esc cancels it.", severity="warning")
            return False
        return True

    def verify(self) -> None:
        """Run the verifier now, as f8 does."""
        verify = self.app.extension_actions.get(Extension.VERIFY_TASK)
        if verify is None:
            self.app.notify(NO_VERIFIER, severity="warning")
            return
        verify()

    async def _show_step(self, index: int) -> None:
        assert self.run is not None
        step = self.run.steps[index]
        if step.record is None:
            self.app.notify(f"Step #{step.call.seq} is {step.state}: not replayed.")
            return
        self.app.post_message(ShowResult(self.app.controller.records[step.record - 1]))

    async def _steps(self, to_end: bool) -> None:
        """Make the next call (or every call left) through the controller and judge it."""
        run, pane, session = self.run, self.pane, self.app.controller
        assert run is not None and pane is not None
        step = run.next_step()
        if step is None:
            self.app.notify("The trajectory is at its end (r starts over).")
            return
        while step is not None:
            record = session.add_record(step.call.tool, dict(step.call.arguments))
            step.record = record.number
            await self.app.run_call(record)
            run.judge(step, record.result, record.message)
            if self.run is not run:  # another transcript was opened meanwhile
                return
            pane.show_step(run.steps.index(step))
            await self.app.run_queued()
            step = run.next_step() if to_end else None
        if to_end and Extension.VERIFY_TASK in self.app.extension_actions:
            self.verify()
