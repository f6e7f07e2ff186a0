"""Observations of a real OpenEnv server (ShapesEnv) shown by shape: in the result view's plan,
in the app, and by the headless `call` command (a subprocess)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.result_format import ImagePart, TextPart, plan_result
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for
from tests.fixtures.openenv_servers import REPO_ROOT

pytestmark = pytest.mark.timeout(90)

BOARD_AFTER_A_MOVE = "1 0 0 0 0 0 0\n" + "0 0 0 0 0 0 0\n" * 4 + "0 0 2 0 0 0 0"


async def test_a_step_observation_plans_images_a_grid_text_and_a_summary(shapes_openenv_server):
    env = OpenEnvEnv(OpenEnvTarget(url=shapes_openenv_server.base_url), seed=1)
    await env.connect()
    try:
        await env.list_tools()
        result = await env.call_tool("step", {"message": "hello\nworld", "column": 2})
    finally:
        await env.close()
    plan = plan_result(result)
    sizes = [Image.open(io.BytesIO(p.data)).size for p in plan.parts if isinstance(p, ImagePart)]
    assert sizes == [(8, 6), (40, 30)]
    texts = [p.text.plain for p in plan.parts if isinstance(p, TextPart)]
    assert BOARD_AFTER_A_MOVE in texts
    assert "You said:\nhello\nworld" in texts
    assert texts.count("You said:\nhello\nworld") == 1
    assert any("prompt: (the same text as text)" in text for text in texts)
    assert "[100 numbers, min 0, max 99]" in texts
    raw = "\n".join(plan.raw.lines)
    assert "screen_shape" in raw and '"pixels": "iVBOR' in raw


def test_headless_call_prints_the_board_and_writes_the_images(shapes_openenv_server, tmp_path):
    command = [sys.executable, "-m", "fleet_tui", "call", "--openenv"]
    command += [shapes_openenv_server.base_url, "step", "-a", "message=hi", "-a", "column=2"]
    command += ["--save-media", str(tmp_path)]
    done = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert BOARD_AFTER_A_MOVE in done.stdout
    assert "You said:\nhi" in done.stdout and "\\n" not in done.stdout
    images = [line for line in done.stdout.splitlines() if line.startswith("[image image/png")]
    # the observation `call` acted on (the reset's), then the step's: two images each
    assert ["/reset-" in line for line in images] == [True, True, False, False]
    for line in images:
        assert Path(line.rsplit(" ", 1)[1]).parent == tmp_path
    assert "iVBOR" not in done.stdout and len(done.stdout.splitlines()) < 40


async def test_the_app_shows_the_images_and_the_board(shapes_openenv_server):
    app = FleetTuiApp(OpenEnvTarget(url=shapes_openenv_server.base_url))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "step", {"message": "[/]hi", "column": 2})

        def image_sizes() -> list[tuple[int, int] | None]:
            views = app.query("#rendered ImageView")
            return [view.picture.size if view.picture else None for view in views]

        await wait_for(pilot, lambda: image_sizes() == [(8, 6), (40, 30)])
        shown = rendered_text(app)
        assert BOARD_AFTER_A_MOVE in shown and "You said:\n[/]hi" in shown
