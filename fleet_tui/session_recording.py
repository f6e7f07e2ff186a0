"""A session's recording, set up the same way for every front end (the app, `fleet-tui proxy`).

`start_recording(target, path, enabled=...)` opens the file; its `env_factory` wraps each env in
a `RecordingEnv` (connect, resets, the calls made and their results), and `attach(session)`
subscribes `recording_listener`, which writes what that wrapper cannot see: the servers' log
messages, resource reads, prompt gets, and the agent's calls that never reached the env
(refused or abandoned).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fleet_tui.envs.factory import make_env
from fleet_tui.envs.server_events import ServerLog
from fleet_tui.envs.targets import InstanceTarget, Target
from fleet_tui.session.recorder import SessionRecorder, default_session_path
from fleet_tui.session.recording_env import RecordingEnv
from fleet_tui.session_records import CallFinished, PromptGot, ResourceRead, SessionEvent

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController
    from fleet_tui.envs.base import Env


@dataclass
class SessionRecording:
    """Where a session is recorded (`recorder`: None when it is not) and how its events get
    there."""

    recorder: SessionRecorder | None

    @property
    def path(self) -> Path | None:
        """The session file (None when not recording)."""
        return self.recorder.path if self.recorder else None

    def env_factory(self, target: Target) -> Env:
        """The env for `target`, wrapped so its calls are recorded (for `SessionController`)."""
        env = make_env(target)
        return RecordingEnv(env, self.recorder, target) if self.recorder else env  # type: ignore[return-value]

    def attach(self, session: SessionController) -> None:
        """Record the session's events that do not pass through the env."""
        if self.recorder is not None:
            session.subscribe(recording_listener(self.recorder))

    def close(self) -> Path | None:
        """Write what is queued and close the file; where it is (None when not recording)."""
        if self.recorder is not None:
            self.recorder.close()
        return self.path


def start_recording(
    target: Target, path: str | Path | None = None, *, enabled: bool = True
) -> SessionRecording:
    """The recording of a session on `target`: in `path`, or a new file in the state folder
    named after the env key (or the target's kind); none when not `enabled`."""
    if not enabled:
        return SessionRecording(None)
    if path is None:
        label = target.env_key if isinstance(target, InstanceTarget) and target.env_key else None
        path = default_session_path(label or target.kind)
    return SessionRecording(SessionRecorder(Path(path)))


def recording_listener(recorder: SessionRecorder) -> Callable[[SessionEvent], None]:
    """A listener for `SessionController.subscribe` that writes those events to `recorder`."""

    def record(event: SessionEvent) -> None:
        if recorder.closed:
            return
        if isinstance(event, ServerLog):
            recorder.server_log(event)
        elif isinstance(event, ResourceRead):
            recorder.read(event.uri, event.result, event.error)
        elif isinstance(event, PromptGot):
            recorder.prompt(event.name, event.arguments, event.result, event.error)
        elif isinstance(event, CallFinished) and (call := event.record).unmade is not None:
            caller, outcome = str(call.caller), str(call.unmade)
            recorder.unmade(call.tool, call.arguments, caller, outcome, call.message)

    return record
