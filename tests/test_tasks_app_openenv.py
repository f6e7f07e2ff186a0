"""Tasks pane on an OpenEnv server: each step's reward with a running total; a server without
task routes says so (the env scores itself: no verifier is needed)."""

from __future__ import annotations

from textual.widgets import Static

from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.task_features import TaskFeatures
from fleet_tui.ui.widgets.task_panel import TaskPanel
from fleet_tui.ui.widgets.verdict import VerdictView
from tests.app_driver import SIZE, wait_connected, wait_for, wait_idle


async def step(pilot, tool: str, arguments: dict):
    app = pilot.app
    await wait_idle(pilot)
    entry = app.start_call(tool, arguments)
    await wait_for(pilot, lambda: entry.status != "running")
    assert entry.status == "ok", entry.message
    return entry


async def test_rewards_with_running_total(counter_openenv_server):
    features = TaskFeatures(recorder=None)
    target = OpenEnvTarget(url=counter_openenv_server.base_url)
    app = FleetTuiApp(target, recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        panel = await wait_for(pilot, lambda: app.query(TaskPanel).first(None))
        message = app.query_one(VerdictView).query_one(Static)
        await wait_for(
            pilot,
            lambda: (
                "No tasks from the server" in str(message.content)
                or "no task routes" in str(message.content)
            ),
        )
        (tool,) = app.controller.tools
        first = await step(pilot, tool.name, {"delta": 2})
        second = await step(pilot, tool.name, {"delta": 3})
        await wait_for(pilot, lambda: len(panel.rewards) == 2)
        assert panel.rewards == [
            f"#{first.number} {tool.name} reward 0.2 · total 0.2",
            f"#{second.number} {tool.name} reward 0.5 · total 0.7",
        ]
        assert "total 0.7" in str(app.query_one("#task-status", Static).content)
