"""The app's task options and keys, and browsing a recorded session."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from fleet_tui.envs.base import TextBlock, ToolResult
from fleet_tui.envs.targets import FleetTarget
from fleet_tui.local import bundled_task_files
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import SessionRecorder, blocks_dir
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.session_browser import SessionBrowserScreen
from fleet_tui.ui.widgets.task_features import TaskFeatures
from fleet_tui.ui.widgets.task_panel import TaskPanel
from tests.app_driver import SIZE, wait_connected, wait_for, wait_idle
from tests.fixtures.local_host import TEST_API_KEY
from tests.test_tasks_app import GOLD, make_app, started, verdict_after


async def test_session_browser_lists_a_gold_session(local_host):
    features = TaskFeatures()
    app = make_app(local_host, features)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot, features)
        path = GOLD / "todo-add-buy-milk.jsonl"
        app.push_screen(SessionBrowserScreen(path))
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#session-events", DataTable)
        assert table.row_count == len(load_session(path).events)
        kinds = [str(table.get_row_at(r)[2]) for r in range(table.row_count)]
        assert kinds[:2] == ["session", "connect"] and kinds[-1] == "verify"
        assert {"task", "reset", "call", "result"} <= set(kinds)
        table.move_cursor(row=table.row_count - 1)
        await pilot.pause()
        assert "PASS" in str(screen.query_one("#session-detail", Static).content)
        screen.open("/nonexistent/session.jsonl")
        await pilot.pause()
        assert "cannot read session file" in str(screen.query_one("#session-problems").content)


async def test_app_options_keys_and_recording(local_host, tmp_path):
    """The app's own options build the features; f6 shows the tasks and f8 verifies."""
    from fleet_tui.cli import build_app_parser

    record = tmp_path / "keys.jsonl"
    args = build_app_parser().parse_args(
        [
            "tracker",
            "--tasks",
            str(bundled_task_files()["tracker"]),
            "--record",
            str(record),
            "--verifier-mode",
            "local",
        ]
    )
    target = FleetTarget(env_key="tracker", base_url=local_host.base_url, api_key=TEST_API_KEY)
    features = TaskFeatures.from_args(args)
    app = FleetTuiApp(target, recorder=features.open_recorder(target))
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot, timeout=60)
        await wait_for(pilot, lambda: app.query("#task-panel"))
        await wait_for(pilot, lambda: app.tool_panel.tool is not None)
        await pilot.press("f6")
        await wait_for(pilot, lambda: app.query_one("#sidebar").active == "pane-tasks")
        panel = app.query_one(TaskPanel)
        await pilot.press("enter", "enter")  # filter -> table, then start the first task
        await wait_for(pilot, lambda: panel.active is not None)
        await wait_idle(pilot)
        await pilot.press("f8")
        verdict, _ = await verdict_after(pilot, panel, 0)
        assert verdict.mode == "local" and not verdict.passed
    assert features.close() == [f"Session recorded in {record}"]
    kinds = [e.event for e in load_session(record).events]
    assert kinds[:2] == ["session", "connect"] and "task" in kinds and kinds[-1] == "verify"


async def test_session_browser_names_a_block_stored_beside_the_session(local_host, tmp_path):
    path = tmp_path / "big.jsonl"
    with SessionRecorder(path) as recorder:
        seq = recorder.call("big", {})
        recorder.result(seq, ToolResult(blocks=[TextBlock(text="x" * 1_500_000)]))
    (stored,) = blocks_dir(path).iterdir()
    features = TaskFeatures()
    app = make_app(local_host, features)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot, features)
        app.push_screen(SessionBrowserScreen(path))
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#session-events", DataTable)
        table.move_cursor(row=table.row_count - 1)
        await pilot.pause()
        assert "→ #2 [text]" in str(table.get_row_at(table.row_count - 1)[3])
        detail = str(screen.query_one("#session-detail", Static).content)
        size = stored.stat().st_size
        assert f"text block of {size} bytes in big.blocks/{stored.name}\n" in detail
