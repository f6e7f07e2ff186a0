"""Helpers for driving FleetTuiApp with Textual's Pilot in tests and scripts."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from fleet_tui.ui import images

images.choose_backend("halfcell")  # deterministic, faithful colours; never probes the terminal

SIZE = (120, 36)


async def wait_for(pilot: Pilot, condition: Callable[[], Any], timeout: float = 20.0) -> Any:
    """Pause until `condition()` is truthy; fail with a clear message after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {getattr(condition, '__name__', condition)}")


async def wait_connected(pilot: Pilot, timeout: float = 30.0) -> None:
    app = pilot.app

    def connected() -> bool:
        return app.controller.state == "connected" and bool(app.controller.tools)

    try:
        await wait_for(pilot, connected, timeout)
    except AssertionError:
        said = [note.message for note in app._notifications] + [app.query_one("#banner").message]
        detail = f"state {app.controller.state}, {len(app.controller.tools)} tools, said {said}"
        raise AssertionError(f"not connected after {timeout}s: {detail}") from None
    await pilot.pause()


def decoding(app) -> bool:
    """True while an image view is still decoding its image."""
    from fleet_tui.ui.widgets.image_view import ImageView

    return any(w.group == ImageView.DECODE_GROUP and not w.is_finished for w in app.workers)


async def wait_idle(pilot: Pilot, timeout: float = 30.0) -> None:
    """Wait until no call is running, no computer action is queued and no image is decoding."""
    app = pilot.app

    def idle() -> bool:
        return not app.call_running and not app.controller.pending_actions and not decoding(app)

    await wait_for(pilot, idle, timeout)
    await pilot.pause()


async def call(
    pilot: Pilot, tool: str, arguments: dict[str, Any] | None = None, timeout: float = 30.0
):
    """Select `tool`, load `arguments` into its form, press ctrl+s; returns the history entry
    once the call ended (within `timeout` seconds)."""
    app = pilot.app
    await app.show_tool(tool, arguments or {})
    await pilot.pause()
    count = len(app.controller.records)
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: len(app.controller.records) > count)
    await wait_idle(pilot, timeout)
    return app.controller.records[count]


def hold_cursors_still(app) -> None:
    """Stop every text cursor blinking (held visible), so a picture does not depend on the
    moment it is taken."""
    for screen in app.screen_stack:
        for widget in screen.query("Input, TextArea"):
            widget.cursor_blink = False


def resident_mb() -> float:
    """This process's resident memory (VmRSS), in megabytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def screen_text(app) -> str:
    """What the terminal shows, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def rendered_text(app) -> str:
    """All plain text in the Rendered tab (text widgets, Markdown sources, pagers)."""
    from textual.widgets import Markdown, Static

    from fleet_tui.ui.widgets.text_pager import TextPager

    parts = []
    for widget in app.query("#rendered *"):
        if isinstance(widget, TextPager):
            parts.append(widget.text)
        elif isinstance(widget, Markdown):
            parts.append(widget.source)
        elif isinstance(widget, Static):
            parts.append(str(widget.content))
    return "\n".join(parts)


def local_target(base_url: str, env_key: str):
    """A target on the test's local Fleet host (`local_host`, whose token is the test API key)."""
    from fleet_tui.envs.targets import FleetTarget
    from tests.fixtures.local_host import TEST_API_KEY

    return FleetTarget(env_key=env_key, base_url=base_url, api_key=TEST_API_KEY)


@asynccontextmanager
async def openenv_tasks_app(
    base_url: str, tasks: int, task: tuple[str, int] | None = None
) -> AsyncIterator[tuple[Pilot, Any]]:
    """The app with its Tasks pane on an OpenEnv server (resetting into `task`, as
    `--openenv-task` asks), connected, once the pane lists `tasks` tasks: yields the pilot
    and the pane."""
    from fleet_tui.envs.targets import OpenEnvTarget
    from fleet_tui.ui.app import FleetTuiApp
    from fleet_tui.ui.widgets.task_features import TaskFeatures
    from fleet_tui.ui.widgets.task_panel import TaskPanel

    features = TaskFeatures(recorder=None)
    app = FleetTuiApp(OpenEnvTarget(url=base_url, task=task), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot, timeout=120)
        panel = await wait_for(pilot, lambda: app.query(TaskPanel).first(None))
        await wait_for(pilot, lambda: len(panel.tasks) == tasks, timeout=120)
        try:
            yield pilot, panel
        finally:
            # The server keeps one session at a time: free it now, not when the socket is
            # collected, or the next test's app is refused ("Server at capacity").
            await app.controller.close_env()
