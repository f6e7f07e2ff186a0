"""What of the session controller's events goes to the session file besides what `RecordingEnv`
writes (connect, resets, the calls made and their results): the servers' log messages, resource
reads, prompt gets, and the agent's calls that never reached the env (refused or abandoned)."""

from __future__ import annotations

from collections.abc import Callable

from fleet_tui.envs.server_events import ServerLog
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.session_records import CallFinished, PromptGot, ResourceRead, SessionEvent


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
