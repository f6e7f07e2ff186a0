"""The app on plain-action OpenEnv envs (real openenv-core servers, driven with Pilot): the
reset's observation is shown after connecting and after each reset, f7 shows the episode's
timeline and the session's state, read again after each step, a refused action says which
field and is no step, the Protocol pane lists the `/ws` frames, and a dropped session is named
as one."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any

from textual.widgets import DataTable

from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.episode_state import EpisodeStatePanel
from fleet_tui.ui.widgets.episode_timeline import EpisodeTimeline
from fleet_tui.ui.widgets.protocol_log import ProtocolPane
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import (
    SIZE,
    call,
    rendered_text,
    screen_text,
    wait_connected,
    wait_for,
    wait_idle,
)
from tests.fixtures.episode_envs import LEDGER_QUESTION, QUESTIONS


@asynccontextmanager
async def episode_app(base_url: str) -> Any:
    """The app with its extensions (Tasks and State panes) on `base_url`, connected."""
    features = TaskFeatures(recorder=None)
    app = FleetTuiApp(OpenEnvTarget(url=base_url), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: "Reset · observation" in str(app.result_view.border_title))
        yield pilot, app
        # quit as a person does, closing the session: the servers hold only a few at once
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, 30)


async def test_the_opponents_move_is_shown_after_connecting(board_server):
    async with episode_app(board_server.base_url) as (_pilot, app):
        assert "opponent played 1,1" in rendered_text(app)
        assert "#1 Reset · observation · ok" in str(app.result_view.border_title)
        assert app.controller.records[0].tool == "<reset>"


async def test_each_reset_shows_the_next_items_observation(quiz_server):
    async with episode_app(quiz_server.base_url) as (pilot, app):
        assert QUESTIONS[0][0] in rendered_text(app)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: str(app.result_view.border_title).startswith("#2 Reset"))
        await wait_idle(pilot)
        assert QUESTIONS[1][0] in rendered_text(app)


async def test_f7_shows_the_state_and_reads_it_again_after_a_step(ledger_server):
    async with episode_app(ledger_server.base_url) as (pilot, app):
        await pilot.press("f7")
        panel = app.query_one(EpisodeStatePanel)
        await wait_for(pilot, lambda: panel.reads == 1)
        assert panel.state["question"] == LEDGER_QUESTION and panel.state["step_count"] == 0
        await call(pilot, "step", {"answer": "12%"})
        await wait_for(pilot, lambda: panel.reads == 2)
        assert panel.state["step_count"] == 1


async def test_the_episode_pane_lists_the_reset_and_each_step_with_reward_and_done(board_server):
    async with episode_app(board_server.base_url) as (pilot, app):
        await call(pilot, "step", {"row": 1})  # refused: no step
        await call(pilot, "step", {"row": 0, "col": 2})
        await pilot.press("f7")
        timeline = app.query_one(EpisodeTimeline)
        table = timeline.query_one(DataTable)
        await wait_for(pilot, lambda: table.row_count == 2)
        reset, step = ([str(cell) for cell in table.get_row_at(row)] for row in (0, 1))
        assert reset[0] == "0" and reset[1].startswith("reset")
        assert step[:1] == ["1"] and step[1].startswith("step") and '"col":2' in step[1]
        assert step[2] == "1 done"
        summary = str(timeline.query_one("#episode-summary").content)
        assert summary.startswith("1 step · reward total 1 · done")
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("enter")  # the reset's observation, again
        await wait_for(pilot, lambda: "Reset" in str(app.result_view.border_title))
        assert "opponent played 1,1" in rendered_text(app)
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: table.row_count == 1)  # a new episode, its reset alone
        assert str(timeline.query_one("#episode-summary").content).startswith("0 steps")


async def test_the_state_pane_shows_a_board_as_rows(board_server):
    async with episode_app(board_server.base_url) as (pilot, app):
        await pilot.press("f7")
        panel = app.query_one(EpisodeStatePanel)
        await wait_for(pilot, lambda: panel.reads == 1)
        await wait_for(pilot, lambda: "0 1 0" in screen_text(app))  # a row, not a cell a line


async def test_a_refused_action_shows_the_field_and_is_no_step(board_server):
    async with episode_app(board_server.base_url) as (pilot, app):
        entry = await call(pilot, "step", {"row": 1})
        assert entry.status == "error" and entry.result.rejected
        assert "col: Field required (missing)" in rendered_text(app)
        app.refresh_status()
        assert "step 0" in str(app.query_one("#status").content)


async def test_the_protocol_pane_lists_the_ws_frames_redacted(board_server):
    async with episode_app(board_server.base_url) as (pilot, app):
        app.start_call("step", {"row": 0, "col": 0, "token": "tok-5e6f7a8b9c"})
        await wait_idle(pilot)
        await pilot.press("f10")
        pane = app.query_one(ProtocolPane)
        await wait_for(pilot, lambda: any(e.method == "step" for e in pane.rows))
        frames = [(e.direction, e.method) for e in pane.rows if e.endpoint.endswith("/ws")]
        assert ("out", "reset") in frames and ("in", "observation") in frames
        step = [e for e in pane.rows if e.method == "step"][-1]
        assert step.message["data"] == {"row": 0, "col": 0, "token": "[redacted]"}


async def test_a_dropped_session_is_told_as_an_openenv_session(dying_openenv_server):
    async with episode_app(dying_openenv_server.base_url) as (pilot, app):
        dying_openenv_server.kill()
        entry = await call(pilot, "echo", {"text": "anyone?"})
        assert entry.status == "failed"
        app.refresh_status()
        await wait_for(pilot, lambda: app.banner.shown)
        assert app.banner.message.startswith("OpenEnv session down: ")
