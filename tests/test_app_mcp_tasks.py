"""In the app, a tool that runs only as an MCP task (server-everything's
`simulate-research-query`) is called as one: the Jobs pane appears with the task's status and
message, enter there shows the call's result, and `c` cancels a running task."""

from __future__ import annotations

from textual.widgets import TabbedContent

from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.events import CallEvent, ResultEvent
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.server_tasks import ServerTasksWatch
from fleet_tui.ui.widgets.server_tasks_pane import ServerTasksPane
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, call, screen_text, wait_connected, wait_for, wait_idle
from tests.fixtures.task_server import COMMAND as TASK_SERVER

TOOL = "simulate-research-query"


def jobs_app(everything) -> FleetTuiApp:
    app = FleetTuiApp(McpTarget(stdio=[everything.stdio_command]))
    app.extensions.append(ServerTasksWatch().install)
    return app


def statuses(app: FleetTuiApp) -> list[str]:
    pane = app.query(ServerTasksPane).first(None)
    return [task.status for _, task in pane.tasks.values()] if pane is not None else []


async def test_a_task_only_tool_is_called_and_listed_in_the_jobs_pane(everything):
    app = jobs_app(everything)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        record = await call(pilot, TOOL, {"topic": "tides"})

        assert record.status == "ok", record.message
        assert "# Research Report: tides" in record.result.blocks[0].text
        await wait_for(pilot, lambda: statuses(app) == ["completed"])
        await call(pilot, "echo", {"message": "elsewhere"})
        assert "Research Report" not in screen_text(app)
        await pilot.press("ctrl+j")
        await pilot.pause()
        assert app.query_one("#sidebar", TabbedContent).active == "pane-jobs"
        assert "completed" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Research Report: tides" in screen_text(app))


async def test_c_in_the_jobs_pane_cancels_the_running_task(everything):
    app = jobs_app(everything)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool(TOOL, {"topic": "tides"})
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: statuses(app) == ["working"])
        await pilot.press("ctrl+j")
        await pilot.pause()
        await pilot.press("c")
        await wait_idle(pilot)

        assert app.controller.records[-1].status == "cancelled"
        # the server's answer to tasks/cancel: the task itself is cancelled
        await wait_for(pilot, lambda: statuses(app) == ["cancelled"])


async def test_a_task_call_is_recorded_like_any_call(everything, tmp_path):
    features = TaskFeatures(recorder=SessionRecorder(tmp_path / "s.jsonl"))
    app = FleetTuiApp(McpTarget(stdio=[everything.stdio_command]), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        record = await call(pilot, TOOL, {"topic": "tides"})
        assert record.status == "ok", record.message

    events = load_session(tmp_path / "s.jsonl").events
    (called,) = [e for e in events if isinstance(e, CallEvent)]
    (answered,) = [e for e in events if isinstance(e, ResultEvent)]
    assert (called.tool, called.arguments, answered.call_seq) == (
        TOOL,
        {"topic": "tides"},
        called.seq,
    )
    assert not answered.result.is_error
    assert "# Research Report: tides" in answered.result.blocks[0].text
    assert answered.result.latency_s > 0


async def test_the_jobs_key_lists_the_tasks_the_server_keeps():
    app = FleetTuiApp(McpTarget(stdio=[TASK_SERVER]))
    app.extensions.append(ServerTasksWatch().install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: statuses(app) == ["completed"])
        assert "(listed)" in screen_text(app)
        record = await call(pilot, "paced")
        assert record.status == "ok", record.message
        await wait_for(pilot, lambda: statuses(app) == ["completed", "completed"])
        pane = app.query_one(ServerTasksPane)
        pane.focus()
        await pilot.press("r")  # listed again: the call's task is not listed twice
        await pilot.pause(0.5)
        assert [r.number if r else None for r, _ in pane.tasks.values()] == [None, record.number]


async def test_the_palette_calls_a_tool_whose_task_support_is_optional_as_a_task():
    app = FleetTuiApp(McpTarget(stdio=[TASK_SERVER]))
    app.extensions.append(ServerTasksWatch().install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        plain = await call(pilot, "either")
        await app.run_action("extension('call_as_task')")
        await wait_for(pilot, lambda: len(app.controller.records) == 2)
        await wait_idle(pilot)

        as_task = app.controller.records[-1]
        assert plain.result.blocks[0].text == "plain call"
        assert as_task.result.blocks[0].text == "ran as a task"
        assert "completed" in statuses(app)
