"""Tasks, verdicts, the state (a Fleet instance's diff, an OpenEnv session's state) and session
recording, added to the app.

`TaskFeatures.from_args(args)` reads the app's task options; `open_recorder(target)` opens the
session's recorder (on unless `--no-record`), which the app gives its session when it makes it,
after its first frame; `install(app)` adds the Tasks
and State panes to the sidebar, wires them to the session and the app's signals, and registers
the task actions the app's keys run. The app is reached through `TaskHost`, what it offers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen
from textual.signal import Signal
from textual.widget import Widget

from fleet_tui.ui.export_action import export_recorded_session
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.keymap import Extension

if TYPE_CHECKING:  # the session's models load after the first frame, the verifiers' with the
    # Tasks pane (when there is one)
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import ResetResult, Task, Tool, ToolResult
    from fleet_tui.envs.targets import Target
    from fleet_tui.session.recorder import SessionRecorder
    from fleet_tui.tasks.verify import AdHocVerifier, VerifierMode
    from fleet_tui.ui.widgets.tool_list import ToolList


class TaskHost(AppServices, Protocol):
    """What the panes need of the app they are added to."""

    @property
    def controller(self) -> SessionController: ...

    env_ready: Signal[list[Tool]]
    env_reset: Signal[ResetResult]
    call_finished: Signal[CallRecord]
    extension_actions: dict[Extension, Callable[[], Any]]

    @property
    def tool_list(self) -> ToolList: ...

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...

    def start_connect(self, reopen: bool = False) -> None: ...

    def start_reset(self, seed: int | None = None) -> None: ...

    def push_screen(self, screen: Screen[Any]) -> Any: ...

    def query_one(self, selector: str) -> Widget: ...

    async def show_call(self, record: CallRecord, result: ToolResult | None) -> None:
        """A call, not a message: the timeline shows a step as its call's outcome (the
        screenshot too), which `ShowResult` does not."""


@dataclass
class TaskFeatures:
    tasks: list[Task] = field(default_factory=list)
    mode: VerifierMode = "remote"
    adhoc: AdHocVerifier | None = None
    recorder: SessionRecorder | None = None
    recording: bool = False
    """Whether `open_recorder` opens one (when none was given)."""
    record_to: str | None = None
    """Where it records (`--record`); None: a new file in the state folder."""
    timeout_s: float | None = None
    """A local verifier's time limit; None: the verifiers' default."""
    session_to_open: Path | None = None

    @classmethod
    def from_args(cls, args: Any) -> TaskFeatures:
        """Options: tasks, verifier_mode, verifier, record, no_record, session (all optional)."""
        tasks_file = getattr(args, "tasks", None)
        session = getattr(args, "session", None)
        return cls(
            tasks=_load_tasks(tasks_file) if tasks_file else [],
            mode=getattr(args, "verifier_mode", None) or "remote",
            adhoc=_load_adhoc(getattr(args, "verifier", None)),
            recording=not getattr(args, "no_record", False),
            record_to=getattr(args, "record", None),
            timeout_s=getattr(args, "verifier_timeout", None),
            session_to_open=Path(session) if session else None,
        )

    def open_recorder(self, target: Target) -> SessionRecorder | None:
        """The session's recorder: the one given, else one opened now for `target` when
        recording (None when not)."""
        if self.recorder is None and self.recording:
            from fleet_tui.session.recorder import recorder_for

            self.recorder = recorder_for(target, self.record_to)
        return self.recorder

    @property
    def images_folder(self) -> Path | None:
        """The recorded session's images folder (None when not recording)."""
        from fleet_tui.session.recorder import images_dir

        return images_dir(self.recorder.path) if self.recorder is not None else None

    async def install(self, app: TaskHost) -> None:
        """Add the panes and register the actions (`app.extension_actions`). The panes' modules
        load here, and only for the targets that have them: the app draws its first frame
        without them."""
        from fleet_tui.envs.targets import InstanceTarget, OpenEnvTarget

        session = app.controller
        actions = app.extension_actions
        actions[Extension.OPEN_SESSION] = lambda: _open_session(app)
        actions[Extension.EXPORT_PAGE] = lambda: export_recorded_session(app, self.recorder)
        if self.tasks or self.adhoc is not None or isinstance(session.target, OpenEnvTarget):
            from fleet_tui.tasks.local_verify import DEFAULT_TIMEOUT_S
            from fleet_tui.ui.widgets.task_panel import TaskPanel

            panel = TaskPanel(
                self.tasks,
                session,
                show_tools=lambda tools: app.tool_list.set_tools(tools),
                connect=app.start_connect,
                reset=app.start_reset,
                mode=self.mode,
                adhoc=self.adhoc,
                timeout_s=self.timeout_s or DEFAULT_TIMEOUT_S,
                id="task-panel",
            )
            await app.add_sidebar_pane("Tasks", panel, "pane-tasks")
            app.env_ready.subscribe(panel, panel.env_ready)
            app.env_reset.subscribe(panel, panel.env_reset)
            app.call_finished.subscribe(panel, panel.call_finished)
            actions[Extension.VERIFY_TASK] = panel.verify
            actions[Extension.SHOW_TASKS] = lambda: _show_pane(app, "pane-tasks", "#task-filter")
        if isinstance(session.target, InstanceTarget):
            from fleet_tui.ui.widgets.state_diff import StateDiffPanel

            state = StateDiffPanel(lambda: session.env, id="state-panel")
            await app.add_sidebar_pane("State", state, "pane-state")
            app.call_finished.subscribe(state, lambda _entry: state.refresh_state())
            app.env_reset.subscribe(state, lambda _outcome: state.refresh_state(new_baseline=True))
            app.env_ready.subscribe(state, lambda _tools: state.refresh_state(new_baseline=True))
            if session.connected:
                state.refresh_state(new_baseline=True)
            actions[Extension.SHOW_STATE] = lambda: _show_pane(app, "pane-state", "#state-query")
        elif isinstance(session.target, OpenEnvTarget):
            await self._install_episode_state(app)
        if self.session_to_open is not None:
            _open_session(app, self.session_to_open)

    async def _install_episode_state(self, app: TaskHost) -> None:
        """The Episode pane of an OpenEnv session: the episode's timeline over the session's
        state. f7 shows it and reads the state; a step or a reset adds to the timeline, and
        reads the state again while it is on screen."""
        from textual.containers import Vertical

        from fleet_tui.ui.widgets.episode_state import EpisodeStatePanel
        from fleet_tui.ui.widgets.episode_timeline import EpisodeTimeline

        panel = EpisodeStatePanel(app.controller.episode_state, id="state-panel")
        timeline = EpisodeTimeline(
            lambda: app.controller.episode,
            lambda record: app.show_call(record, record.result),
            id="episode-timeline",
        )
        await app.add_sidebar_pane("Episode", Vertical(timeline, panel), "pane-state")

        def changed() -> None:
            timeline.refresh_timeline()
            panel.refresh_if_shown()

        app.call_finished.subscribe(panel, lambda _entry: changed())
        app.env_reset.subscribe(panel, lambda _outcome: changed())
        app.env_ready.subscribe(panel, lambda _tools: changed())

        def show() -> None:
            _show_pane(app, "pane-state", "#episode-state-json")
            panel.refresh_state()

        app.extension_actions[Extension.SHOW_STATE] = show

    def close(self) -> list[str]:
        """Close the recorder; lines for the user about where the session went."""
        if self.recorder is None:
            return []
        self.recorder.close()
        return [f"Session recorded in {self.recorder.path}"]


def _open_session(app: TaskHost, path: Path | None = None) -> None:
    """The session browser (on `path`'s session, else on the recent sessions)."""
    from fleet_tui.ui.screens.session_browser import SessionBrowserScreen

    app.push_screen(SessionBrowserScreen(path))


def _load_tasks(path: str) -> list[Task]:
    """`--tasks FILE`, read now (its models load with it): a file it cannot read fails here."""
    from fleet_tui.tasks.files import load_tasks

    return load_tasks(path)


def _load_adhoc(path: str | None) -> AdHocVerifier | None:
    """`--verifier FILE.py`, read now: a file it cannot read fails here, with a clear message."""
    if not path:
        return None
    from fleet_tui.tasks.verify import AdHocVerifier

    adhoc = AdHocVerifier(Path(path))
    adhoc.code()
    return adhoc


def _show_pane(app: TaskHost, pane_id: str, focus: str) -> None:
    app.show_sidebar_pane(pane_id)
    app.query_one(focus).focus()
