"""The app on a real OpenEnv server (openenv-core): tools, reward and done, reset, images."""

from __future__ import annotations

from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for, wait_idle


async def test_openenv_episode_in_the_status_bar_and_reset(openenv_server):
    app = FleetTuiApp(OpenEnvTarget(url=openenv_server.base_url))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert {"echo", "snapshot", "finish"} <= {t.name for t in app.controller.tools}
        entry = await call(pilot, "echo", {"text": "[/]hi"})
        assert entry.status == "ok" and "[/]hi" in rendered_text(app)
        await call(pilot, "snapshot", {"width": 8, "height": 6})
        assert [v.picture.size for v in app.query("#rendered ImageView")] == [(8, 6)]
        await call(pilot, "finish", {"answer": "42"})
        app.refresh_status()
        status = str(app.query_one("#status").content)
        assert "step 3" in status and "reward 1" in status and "done" in status
        await pilot.press("ctrl+r")
        await pilot.pause()
        await pilot.press(*"7", "enter")
        await wait_for(pilot, lambda: app.controller.records[-1].tool == "<reset>")
        await wait_idle(pilot)
        assert app.controller.records[-1].status == "ok" and app.controller.records[
            -1
        ].arguments == {"seed": 7}
        app.refresh_status()
        assert "step 0" in str(app.query_one("#status").content)
