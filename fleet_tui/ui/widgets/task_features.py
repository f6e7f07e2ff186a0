"""Tasks, verdicts, the state diff and session recording, added to a `FleetTuiApp`.

`TaskFeatures.from_args(target, args)` reads the app's task options; `env_factory` wraps each
env in a `RecordingEnv` (recording is on unless `--no-record`); `install(app)` adds the Tasks
and State panes to the sidebar and registers the task actions the app's keys run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.base import Env, Task
from fleet_tui.session.recorder import SessionRecorder, default_session_path, images_dir
from fleet_tui.session.recording_env import RecordingEnv
from fleet_tui.targets import Target, make_env
from fleet_tui.tasks.local_verify import DEFAULT_TIMEOUT_S
from fleet_tui.tasks.verify import AdHocVerifier, VerifierMode
from fleet_tui.ui.screens.session_browser import SessionBrowserScreen
from fleet_tui.ui.widgets.state_diff import StateDiffPanel
from fleet_tui.ui.widgets.task_panel import TaskPanel, load_adhoc

if TYPE_CHECKING:
    from fleet_tui.ui.app import FleetTuiApp


@dataclass
class TaskFeatures:
    tasks: list[Task] = field(default_factory=list)
    mode: VerifierMode = "remote"
    adhoc: AdHocVerifier | None = None
    recorder: SessionRecorder | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    session_to_open: Path | None = None

    @classmethod
    def from_args(cls, target: Target, args: Any) -> TaskFeatures:
        """Options: tasks, verifier_mode, verifier, record, no_record, session (all optional)."""
        from fleet_tui.tasks.files import load_tasks

        tasks_file = getattr(args, "tasks", None)
        record = getattr(args, "record", None)
        recorder = None
        if not getattr(args, "no_record", False):
            label = target.env_key or target.kind
            recorder = SessionRecorder(Path(record) if record else default_session_path(label))
        session = getattr(args, "session", None)
        return cls(
            tasks=load_tasks(tasks_file) if tasks_file else [],
            mode=getattr(args, "verifier_mode", None) or "remote",
            adhoc=load_adhoc(getattr(args, "verifier", None)),
            recorder=recorder,
            timeout_s=getattr(args, "verifier_timeout", None) or DEFAULT_TIMEOUT_S,
            session_to_open=Path(session) if session else None,
        )

    @property
    def images_folder(self) -> Path | None:
        """The recorded session's images folder (None when not recording)."""
        return images_dir(self.recorder.path) if self.recorder else None

    def env_factory(self, target: Target) -> Env:
        env = make_env(target)
        return RecordingEnv(env, self.recorder, target) if self.recorder else env  # type: ignore[return-value]

    async def install(self, app: FleetTuiApp) -> None:
        """Add the panes and register the actions (`app.extension_actions`)."""
        actions = getattr(app, "extension_actions", None)
        if actions is not None:
            actions["open_session"] = lambda: app.push_screen(SessionBrowserScreen())
        if self.tasks or self.adhoc is not None or app.target.kind == "openenv":
            panel = TaskPanel(
                self.tasks,
                mode=self.mode,
                adhoc=self.adhoc,
                recorder=self.recorder,
                timeout_s=self.timeout_s,
                id="task-panel",
            )
            await app.add_sidebar_pane("Tasks", panel, "pane-tasks")
            if actions is not None:
                actions["verify_task"] = panel.verify
                actions["show_tasks"] = lambda: _show_pane(app, "pane-tasks", "#task-filter")
        if app.target.kind in ("fleet", "local"):
            state = StateDiffPanel(lambda: app.env, id="state-panel")
            await app.add_sidebar_pane("State", state, "pane-state")
            app.call_finished.subscribe(state, lambda _entry: state.refresh_state())
            app.env_reset.subscribe(state, lambda _outcome: state.refresh_state(new_baseline=True))
            app.env_ready.subscribe(state, lambda _tools: state.refresh_state(new_baseline=True))
            if app.env is not None and app.connection_state == "connected":
                state.refresh_state(new_baseline=True)
            if actions is not None:
                actions["show_state"] = lambda: _show_pane(app, "pane-state", "#state-query")
        if self.session_to_open is not None:
            app.push_screen(SessionBrowserScreen(self.session_to_open))

    def close(self) -> list[str]:
        """Close the recording; lines for the user about where it went."""
        if self.recorder is None:
            return []
        self.recorder.close()
        return [f"Session recorded in {self.recorder.path}"]


def _show_pane(app: FleetTuiApp, pane_id: str, focus: str) -> None:
    from textual.widgets import TabbedContent

    sidebar = app.query_one("#sidebar", TabbedContent)
    sidebar.display = True
    sidebar.active = pane_id
    app.query_one(focus).focus()
