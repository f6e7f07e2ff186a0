"""Tasks in the app on the embedded host: the browser, starting tasks of both modalities,
verifying in both modes, the ad-hoc verifier file, the state diff, recording, session browsing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from fleet_tui.envs.targets import FleetTarget
from fleet_tui.local import bundled_task_files
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.tasks.files import load_tasks
from fleet_tui.tasks.start import takes_final_answer, tools_for_modality
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.state_diff import StateDiffPanel
from fleet_tui.ui.widgets.task_browser import TaskBrowser
from fleet_tui.ui.widgets.task_detail import TaskDetail
from fleet_tui.ui.widgets.task_features import TaskFeatures
from fleet_tui.ui.widgets.task_panel import TaskPanel
from fleet_tui.ui.widgets.verdict import VerdictView
from tests.app_driver import SIZE, call, wait_connected, wait_for, wait_idle
from tests.fixtures.local_host import TEST_API_KEY

GOLD = Path(__file__).parent / "data" / "gold"


def all_tasks():
    return [task for path in bundled_task_files().values() for task in load_tasks(path)]


async def started(pilot, features: TaskFeatures, env_key: str | None = None):
    app = pilot.app
    await wait_connected(pilot, timeout=60)
    await wait_for(pilot, lambda: app.tool_panel.tool is not None)  # the app is done connecting
    await features.install(app)
    await pilot.pause()
    if features.tasks or features.adhoc:
        app.query_one("#sidebar").active = "pane-tasks"
        app.query_one("#task-filter").focus()
        await wait_for(pilot, lambda: app.query_one("#sidebar").active == "pane-tasks")
    return app.query_one(TaskPanel) if features.tasks or features.adhoc else None


async def act(pilot, tool: str, arguments: dict):
    """Send one call the way the screenshot pane's live mode does, and wait for it."""
    app = pilot.app
    await wait_idle(pilot)
    entry = app.start_call(tool, arguments)
    assert entry is not None
    await wait_for(pilot, lambda: entry.status != "running")
    await wait_idle(pilot)
    assert entry.status == "ok", entry.message
    return entry


def make_app(local_host, features: TaskFeatures, env_key="tracker") -> FleetTuiApp:
    target = FleetTarget(env_key=env_key, base_url=local_host.base_url, api_key=TEST_API_KEY)
    return FleetTuiApp(target, recorder=features.recorder)


async def verdict_after(pilot, panel: TaskPanel, count: int):
    await wait_for(pilot, lambda: len(panel.verdicts) > count, timeout=60)
    await pilot.pause()
    return panel.verdicts[-1]


async def test_browse_start_verify_both_modalities_and_record(local_host, tmp_path):
    features = TaskFeatures(tasks=all_tasks(), recorder=SessionRecorder(tmp_path / "s.jsonl"))
    app = make_app(local_host, features)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        panel = await started(pilot, features)
        browser = app.query_one(TaskBrowser)
        assert browser.table.row_count == 9
        browser.query_one("#task-filter").value = "safari"
        await pilot.pause()
        assert [t.key for t in browser.shown] == ["tracker-assign-safari-crash"]
        await wait_for(pilot, lambda: app.query_one(TaskDetail).shown_task is not None)
        detail = app.query_one(TaskDetail)
        assert "Assign it to carol" in detail.query_one("#task-prompt").source
        assert "def validate_task" in str(detail.query_one("#task-code", Static).content.code)

        # tool_use on the connected tracker: a reset, the computer tool hidden (there is none)
        instance = app.controller.env.info.instance_id
        await pilot.click("#start-task")
        await wait_for(pilot, lambda: any(e.tool == "<reset>" for e in app.controller.records))
        await wait_idle(pilot)
        assert app.controller.env.info.instance_id == instance
        assert panel.active.key == "tracker-assign-safari-crash"

        await pilot.click("#verify-task")
        verdict, after = await verdict_after(pilot, panel, 0)
        assert verdict.success and not verdict.passed and verdict.mode == "remote"
        assert after is None

        entry = await call(
            pilot,
            "update_issue",
            {"issue_id": 5, "changes": {"assignee": "carol", "status": "in_progress"}},
        )
        panel.verify()
        verdict, after = await verdict_after(pilot, panel, 1)
        assert verdict.passed and after == f"#{entry.number} update_issue"
        history = [e for e in app.controller.records if e.tool == "<verify>"]
        assert [e.status for e in history] == ["fail", "pass"]
        assert "PASS" in str(app.query_one(VerdictView).query_one(Static).content)

        # the state diff shows the change against the seed
        state = app.query_one(StateDiffPanel)
        await wait_for(pilot, lambda: state.diff is not None and not state.diff.is_empty)
        (issues,) = state.diff.tables
        assert issues.table == "issues" and issues.changed[0].key == {"id": 5}
        assert {"assignee", "status"} <= set(issues.changed[0].columns)

        # computer_use on another env: provisions desktop-todo, offers only `computer`
        browser.query_one("#task-filter").value = "buy milk"
        await pilot.pause()
        await pilot.click("#start-task")
        await wait_for(
            pilot,
            lambda: (
                app.controller.env is not None
                and app.controller.env.info.env_key == "desktop-todo"
                and app.controller.state == "connected"
            ),
            timeout=60,
        )
        await wait_idle(pilot)
        assert [t.name for t in app.tool_list.tools] == ["computer"]
        assert any(t.name == "app_state" for t in app.controller.tools)  # hidden, not gone
        await wait_for(
            pilot,
            lambda: app.screenshot_pane.display and app.controller.records[-1].tool == "computer",
        )
        for arguments in (
            {"action": "left_click", "coordinate": [500, 128]},
            {"action": "type", "text": "Buy milk"},
            {"action": "key", "text": "Return"},
        ):
            await act(pilot, "computer", arguments)
        panel.mode = "local"
        panel.verify()
        verdict, _ = await verdict_after(pilot, panel, 2)
        assert verdict.passed and verdict.mode == "local", verdict

    features.close()
    session = load_session(tmp_path / "s.jsonl")
    kinds = [e.event for e in session.events]
    assert kinds.count("connect") == 2 and kinds.count("verify") == 3
    assert [t.task.key for t in session.events if t.event == "task"] == [
        "tracker-assign-safari-crash",
        "todo-add-buy-milk",
    ]
    assert any(e.event == "call" and e.tool == "update_issue" for e in session.events)


@pytest.mark.parametrize(
    ("modality", "names", "note"),
    [
        ("computer_use", ["computer"], False),
        ("tool_use", ["list"], False),
        (None, ["computer", "list"], False),
    ],
)
def test_modality_filters_tools(modality, names, note):
    class T:
        def __init__(self, name):
            self.name = name

    shown, message = tools_for_modality([T("computer"), T("list")], modality)
    assert [t.name for t in shown] == names and bool(message) == note


def test_computer_use_without_a_computer_tool_says_so():
    class T:
        name = "list_issues"

    shown, message = tools_for_modality([T()], "computer_use")
    assert len(shown) == 1 and "no computer tool" in message


def test_final_answer_input_only_for_verifiers_that_take_one():
    assert takes_final_answer("def v(env, final_answer=None):\n    return final_answer == '4'\n")
    assert takes_final_answer("def v(env, answer):\n    return float(answer)\n")
    assert not takes_final_answer("def v(env, final_answer=None):\n    return 1\n")
    assert not takes_final_answer("def v(env):\n    return 1\n")
    assert not takes_final_answer("def v(env)\n")
