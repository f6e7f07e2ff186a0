"""Sharing an episode from the app: `fleet-tui replay SESSION --play` plays a desktop episode
recorded on the embedded host back with no env — its calls, pictures and verdict in order, fast
or one step per f12 — and the palette's *Export this session as a web page…* writes the session
being recorded as a page."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from fleet_tui.controller import Caller, CallStatus
from fleet_tui.local import bundled_task_files
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.tasks.files import load_tasks
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.playback import Playback
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, call, local_target, wait_connected, wait_for
from tests.test_session_replay import record

CALLS = [
    ("computer", {"action": "screenshot"}),
    ("computer", {"action": "left_click", "coordinate": [200, 120]}),
    ("computer", {"action": "type", "text": "Buy milk"}),
    ("computer", {"action": "key", "text": "Return"}),
    ("computer", {"action": "screenshot"}),
]


@pytest.fixture(scope="module")
def desktop_session(local_host, tmp_path_factory):
    task = load_tasks(bundled_task_files()["desktop-todo"])[0]
    path = tmp_path_factory.mktemp("playback") / "desktop.jsonl"
    return asyncio.run(record(path, local_host, "desktop-todo", CALLS, task))


def playback_app(session, speed: float) -> tuple[FleetTuiApp, Playback]:
    args = argparse.Namespace(play_session=str(session.path), speed=speed)
    playback = Playback.from_args(args)
    assert playback is not None
    app = FleetTuiApp(session.connect().target, env_factory=playback.env_factory)
    app.extensions.append(playback.install)
    return app, playback


def played(app: FleetTuiApp) -> list:
    return [r for r in app.controller.records if r.caller == Caller.PLAYBACK]


async def test_a_playback_shows_every_recorded_step_with_its_pictures(desktop_session):
    app, playback = playback_app(desktop_session, speed=1000)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: playback.played == len(playback.steps), timeout=60)
        calls = [r for r in played(app) if r.is_call]
        assert [(r.tool, r.arguments) for r in calls] == [(t, a) for t, a in CALLS]
        assert all(r.status == CallStatus.OK for r in calls)
        recorded = [desktop_session.tool_result(s.result.result) for s in desktop_session.steps()]
        first, last = calls[0].result.images()[0].data, calls[-1].result.images()[0].data
        assert first == recorded[0].images()[0].data and last == recorded[-1].images()[0].data
        assert first != last  # the todo was added between the two screenshots
        verdicts = [
            r for r in app.controller.records if r.status in (CallStatus.PASS, CallStatus.FAIL)
        ]
        assert len(verdicts) == 1
        await wait_for(pilot, lambda: app.screenshot_pane.image.picture is not None)  # decoded
        assert "playback" in str(app.query_one("#status").render())
        await pilot.press("ctrl+q")


async def test_speed_zero_plays_one_step_per_f12(desktop_session):
    app, playback = playback_app(desktop_session, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.controller.connected)
        await pilot.pause(0.5)
        assert playback.played == 0 and not played(app)  # waiting for a key
        await pilot.press("f12")
        await wait_for(pilot, lambda: playback.played == 1)
        await pilot.pause(0.3)
        assert playback.played == 1
        await pilot.press("f12")
        await wait_for(pilot, lambda: playback.played == 2)
        await pilot.press("f11")  # play on
        await wait_for(pilot, lambda: playback.played == len(playback.steps), timeout=60)
        await pilot.press("ctrl+q")


async def test_a_call_the_recording_lacks_gets_a_plain_error(desktop_session):
    app, playback = playback_app(desktop_session, speed=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.controller.connected)
        assert playback.env is not None
        result = await playback.env.call_tool("computer", {"action": "scroll"})
        assert result.is_error and "not in the recording" in result.text()
        screen = await playback.env.call_tool("computer", {"action": "screenshot"})
        assert screen.images()  # the screen as the recording began
        await pilot.press("ctrl+q")


async def test_the_palette_exports_the_session_being_recorded(local_host, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    features = TaskFeatures(recorder=SessionRecorder(tmp_path / "live.jsonl"))
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "list_users")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"export this session")
        await pilot.pause(0.5)  # the palette's search
        await pilot.press("enter")
        page = tmp_path / "live.html"
        await wait_for(pilot, page.exists, timeout=30)
        await wait_for(pilot, lambda: "list_users" in page.read_text(), timeout=30)
        await pilot.press("ctrl+q")
    features.close()
