"""Scripted walks through the app on the local host (and one on the tests' asking MCP server),
shared by the snapshot tests and `scripts/screenshots` (which regenerates the README's
screenshots).

`StableEnv` wraps the real env and pins what changes from run to run (instance id, latency),
so pictures of the app compare byte for byte.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from fleet_tui.envs.base import Env, ToolResult
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.trajectory_run import TrajectoryRun
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.elicitation_screen import ElicitationScreen
from fleet_tui.ui.screens.endpoints import EndpointsScreen
from fleet_tui.ui.trajectory import TrajectoryReplay
from fleet_tui.ui.widgets.catalog_panes import ResourcesPane
from fleet_tui.ui.widgets.trajectory_pane import TrajectorySteps
from tests.app_driver import (
    call,
    hold_cursors_still,
    local_target,
    screen_text,
    wait_connected,
    wait_for,
    wait_idle,
)


class StableEnv:
    """The real env, with a fixed instance id and call latency for reproducible pictures."""

    def __init__(self, env: Env) -> None:
        self._env = env

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)

    @property
    def info(self):
        info = self._env.info.model_copy()
        if info.instance_id:
            info.instance_id = "a1b2c3d4e5f6"
        return info

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        result = await self._env.call_tool(name, arguments)
        return result.model_copy(update={"latency_s": 0.042})


def stable_app(base_url: str, env_key: str) -> FleetTuiApp:
    return FleetTuiApp(
        local_target(base_url, env_key), env_factory=lambda t: StableEnv(make_env(t))
    )


async def tracker_form(pilot) -> None:
    """The tracker's tool list with the create_issue form filled in."""
    await wait_connected(pilot)
    app = pilot.app
    await app.show_tool(
        "create_issue",
        {"project": "WEB", "title": "Login page shows [/] literally", "priority": "high"},
    )
    app.tool_list.select("create_issue")
    await pilot.pause(0.3)


async def tracker_text_result(pilot) -> None:
    """A text result: the tool's error message, in the error style."""
    await wait_connected(pilot)
    await call(pilot, "get_issue", {"issue_id": 9999})
    await pilot.pause(0.3)


async def tracker_json_result(pilot) -> None:
    """A JSON result: the issue list, highlighted."""
    await wait_connected(pilot)
    await call(pilot, "list_issues", {"limit": 3})
    await pilot.pause(0.3)


async def tracker_history(pilot) -> None:
    """Several calls in the history, one failed."""
    await wait_connected(pilot)
    await call(pilot, "list_users")
    await call(pilot, "get_issue", {"issue_id": 2})
    await call(pilot, "get_issue", {"issue_id": 9999})
    await call(pilot, "search_issues", {"query": {"text": "login"}})
    await pilot.press("f3")
    await pilot.pause(0.3)


async def tracker_history_zoomed(pilot) -> None:
    """The history of several calls, zoomed to the whole width (ctrl+z)."""
    await tracker_history(pilot)
    await pilot.press("ctrl+z")
    await pilot.pause(0.3)


async def tracker_help(pilot) -> None:
    """F1 on the result view."""
    await wait_connected(pilot)
    pilot.app.result_view.query_one("Tabs").focus()
    await pilot.press("f1")
    await pilot.pause(0.3)


async def desktop_screenshot(pilot) -> None:
    """The computer-use env after a click on the input and some typing."""
    await wait_connected(pilot)
    await wait_idle(pilot)
    await call(pilot, "computer", {"action": "left_click", "coordinate": [400, 128]})
    await call(pilot, "computer", {"action": "type", "text": "Buy oat milk"})
    await pilot.pause(0.3)


Walk = Callable[[Any], Awaitable[None]]


def steady(walk: Walk) -> Walk:
    """The walk, then every text cursor held still: a blinking cursor would make the picture
    depend on the moment it was taken."""

    async def run(pilot) -> None:
        await walk(pilot)
        hold_cursors_still(pilot.app)
        await pilot.pause()

    return run


FLOWS: dict[str, tuple[str, Walk]] = {
    "tool-form": ("tracker", steady(tracker_form)),
    "text-result": ("tracker", steady(tracker_text_result)),
    "json-result": ("tracker", steady(tracker_json_result)),
    "history": ("tracker", steady(tracker_history)),
    "history-zoomed": ("tracker", steady(tracker_history_zoomed)),
    "help": ("tracker", steady(tracker_help)),
    "computer-use": ("desktop-todo", steady(desktop_screenshot)),
}
"""Picture name -> (env key, the walk that sets it up)."""


async def elicitation_form(pilot) -> None:
    """The asking server's `book` tool waiting on its elicitation form, partly filled in."""
    await wait_connected(pilot)
    await pilot.app.show_tool("book", {})
    await pilot.pause()
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ElicitationScreen))
    await pilot.press(*"Ada Lovelace", "tab", "4")


SERVER_FLOWS: dict[str, Walk] = {"elicitation": steady(elicitation_form)}
"""Picture name -> the walk, on the asking MCP server (tests/fixtures/asking_server.py)."""


async def catalog_resources(pilot) -> None:
    """The Resources pane of tests/fixtures/catalog_server.py: the notes subscribed and updated
    since, the JSON config read into the result view, a destructive tool's form."""
    app = pilot.app
    await wait_connected(pilot)
    await wait_for(
        pilot, lambda: app.query(ResourcesPane) and app.query(ResourcesPane)[0].resources
    )
    await app.show_tool("wipe")
    await app.run_action("show_resources")
    pane = app.query_one(ResourcesPane)
    await pilot.press("u")
    await wait_for(pilot, lambda: pane.subscribed)
    await app.controller.env.call_tool("touch", {"text": "new notes"})
    await wait_for(pilot, lambda: pane.updated)
    await pilot.press("down", "enter")
    await wait_for(pilot, lambda: app.result_view.plan and "config" in app.result_view.plan.title)
    await pilot.pause(0.3)


async def catalog_info(pilot) -> None:
    """The info view (ctrl+f) on the catalog server: its info and instructions, two roots."""
    app = pilot.app
    await wait_connected(pilot)
    await app.controller.set_roots(["file:///home/ada/project", "file:///srv/data"])
    await pilot.press("ctrl+f")
    await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
    await pilot.pause(0.3)


MCP_FLOWS: dict[str, Walk] = {
    "resources": steady(catalog_resources),
    "info": steady(catalog_info),
}
"""Picture name -> the walk that sets it up, on an app connected to the catalog server."""


async def board_episode(pilot) -> None:
    """A board game whose opponent moved during the reset, after one step of ours: the
    observation as a board, the episode in the header, the session's state on f7."""
    app = pilot.app
    await wait_connected(pilot)
    await wait_for(pilot, lambda: "Reset · observation" in str(app.result_view.border_title))
    await call(pilot, "step", {"row": 0, "col": 2})
    await pilot.press("f7")
    await wait_for(pilot, lambda: "Session state" in screen_text(app))


async def shapes_observation(pilot) -> None:
    """The reset's observation of an env whose fields hold a picture (base64 PNG), a pixel
    array with its shape, a board and multi-line text, scrolled to the pictures."""
    app = pilot.app
    await wait_connected(pilot)
    await wait_for(pilot, lambda: "Reset · observation" in str(app.result_view.border_title))
    await wait_idle(pilot)
    app.action_toggle_sidebar()
    await pilot.pause(0.5)
    app.result_view.query_one("#rendered").scroll_end(animate=False)
    await pilot.pause(0.5)


OPENENV_FLOWS: dict[str, tuple[str, Walk]] = {
    "episode": ("board", steady(board_episode)),
    "observation-shapes": ("shapes", steady(shapes_observation)),
}
"""Picture name -> (the test OpenEnv env it is taken on, the walk that sets it up)."""


def stable_mcp_app(url: str) -> FleetTuiApp:
    return FleetTuiApp(McpTarget(urls=[url]), env_factory=lambda t: StableEnv(make_env(t)))


TRACKER_SAFARI = Path(__file__).parent / "data" / "trajectories" / "tracker-safari.jsonl"
"""An agent's transcript on the tracker (Anthropic messages, JSONL): a search the env answers
the same, a browser tool the env lacks, a user list that differs, the update the task asks."""


def trajectory_app(base_url: str) -> FleetTuiApp:
    """The tracker app with TRACKER_SAFARI open in the Trajectory pane."""
    app = stable_app(base_url, "tracker")
    app.extensions.append(TrajectoryReplay(run=TrajectoryRun.load(TRACKER_SAFARI)).install)
    return app


async def tracker_trajectory(pilot) -> None:
    """The transcript stepped to its divergent user list (the browser tool skipped)."""
    app = pilot.app
    await wait_connected(pilot)
    await wait_for(pilot, lambda: app.query_one("#sidebar").active == "pane-trajectory")
    await wait_for(pilot, lambda: app.tool_panel.tool is not None)
    app.query_one(TrajectorySteps).focus()
    for _ in range(2):
        await pilot.press("n")
        await pilot.pause()
        await wait_idle(pilot)
    await pilot.pause(0.3)
