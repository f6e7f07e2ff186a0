"""Run the app on a target until it is closed, then close what it created, however it ended:
a quit, an unhandled exception, SIGTERM or SIGHUP."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.call_clock import DEFAULT_CALL_TIMEOUT_S
from fleet_tui.envs.errors import EnvError
from fleet_tui.stop_signals import stop_on_signals
from fleet_tui.text import clean
from fleet_tui.ui import images, terminal_probe
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.preferences import Preferences, preferences_path
from fleet_tui.ui.server_tasks import ServerTasksWatch
from fleet_tui.ui.trajectory import TrajectoryReplay
from fleet_tui.ui.widgets.task_features import TaskFeatures

if TYPE_CHECKING:
    from fleet_tui.controller import SessionController
    from fleet_tui.envs.targets import Target
    from fleet_tui.session.recorder import SessionRecorder
    from fleet_tui.ui.playback import Playback


def run_app(target: Target | Callable[[], Target], args: Any = None) -> int:
    """Run the app on `target` until the user quits; returns the exit code. `target` may be
    what makes it (from the command line's words): the app makes it once its first frame is
    drawn, as the models load then."""
    terminal_probe.wait()  # before anything can end the process with the terminal's answer unread
    try:
        images.choose_backend(getattr(args, "image_backend", None))
    except ValueError as error:
        raise EnvError(str(error)) from None
    images.image_widget_class()  # probe the terminal now: it cannot be probed once Textual runs
    features = TaskFeatures.from_args(args)
    trajectory = TrajectoryReplay.from_args(args)
    playback = played_back(args)
    keep_note: list[str] = []

    def open_recorder(target: Target) -> SessionRecorder | None:
        """The session's recorder, opened when the app makes its session; the images of
        its results are saved beside it."""
        recorder = features.open_recorder(target)
        app.image_folder = features.images_folder
        return recorder

    app = FleetTuiApp(
        target,
        keep_note=keep_note,
        env_factory=playback.env_factory if playback else None,
        recorder=None if playback else open_recorder,
        roots=getattr(args, "roots", None),
        preferences=Preferences(preferences_path()),
        timeout_s=getattr(args, "timeout", DEFAULT_CALL_TIMEOUT_S),
    )
    if typed := terminal_probe.typed_meanwhile():
        app.extensions.append(lambda app: take_keys(app, typed))
    # A playback has no env behind it: no tasks, state or recording, only the recorded steps.
    if playback:
        app.extensions.append(playback.install)
    else:
        app.extensions.append(features.install)
        app.extensions.append(ServerTasksWatch().install)
    app.extensions.append(trajectory.install)
    if hint := getattr(args, "first_hint", None):
        app.extensions.append(lambda app: app.notify(hint, title="Welcome", timeout=60))
    if getattr(args, "serve_mcp", None) is not None:
        from fleet_tui.ui.agent_watch import AgentWatch  # the proxy's server, only when asked

        app.extensions.append(AgentWatch.from_args(args).install)
    try:
        code = asyncio.run(run_until_closed(app))
    finally:
        keep_note += features.close()
    for line in keep_note:
        print(line)
    return code


def played_back(args: Any) -> Playback | None:
    """The recorded session to play back (`fleet-tui replay --play`), if any: its reader and
    events load only then."""
    if getattr(args, "play_session", None) is None:
        return None
    from fleet_tui.ui.playback import Playback

    return Playback.from_args(args)


def take_keys(app: FleetTuiApp, typed: str) -> None:
    """Keys typed before the app ran, read as Textual reads the terminal, for the app to take
    as if typed now (into the tool filter, focused at mount)."""
    from textual._xterm_parser import XTermParser  # the parser of Textual's own drivers

    for event in XTermParser().feed(typed):
        app.post_message(event)


async def run_until_closed(app: FleetTuiApp) -> int:
    """Run the app, then close what it created — after a quit, an unhandled exception (exit
    code 1), or SIGTERM or SIGHUP (the app exits at once; 128 + the signal's number).
    Textual has restored the terminal by then; closing is bounded by its timeouts."""
    with stop_on_signals(app.exit) as stop:
        try:
            await app.run_async()
        finally:
            await app.run_closers()
            if app.made_session is not None:  # none when the app ended before its first frame
                await close_session(app.made_session)
    return stop.exit_code or app.return_code or 0


async def close_session(session: SessionController) -> None:
    """Close what the session created, saying so, and the problems closing met."""
    if session.env is not None or session.env_closes:
        print("fleet-tui: closing what fleet-tui created…", file=sys.stderr, flush=True)
    await session.close()
    for problem in session.close_problems:
        print(f"fleet-tui: {clean(problem)}", file=sys.stderr, flush=True)
