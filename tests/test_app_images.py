"""Images that are hard to show, from a real MCP server: too large to decode, a PNG with a
broken optional chunk, bytes that are no image; decoding off the UI thread; memory kept flat."""

from __future__ import annotations

import gc
import hashlib
import tempfile
import threading
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageFile

from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.images import DISPLAY_MAX_SIDE
from fleet_tui.ui.widgets.image_view import ImageView
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import (
    SIZE,
    call,
    local_target,
    rendered_text,
    resident_mb,
    wait_connected,
    wait_for,
    wait_idle,
)
from tests.fixtures.mcp_servers import NOT_AN_IMAGE, huge_png


def shown_image(app: FleetTuiApp) -> ImageView:
    [view] = app.query("#rendered ImageView")
    return view


def saved_path(message: str) -> Path:
    prefix = "image too large (12000x12000): saved to "
    assert message.startswith(prefix), message
    return Path(message.removeprefix(prefix))


async def test_a_huge_image_is_not_decoded_and_its_bytes_are_saved(mcp_images):
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "huge_image")
        assert entry.status == "ok" and "a huge picture" in rendered_text(app)
        view = shown_image(app)
        assert view.picture is None and view.image_size == (12000, 12000)
        path = saved_path(view.error)
        assert path.parent.parent == Path(tempfile.gettempdir())
        assert path.parent.name.startswith("fleet-tui-images-")
        assert path.read_bytes() == huge_png()
        message = view.query_one(".image-error")
        assert message.display and str(message.content) == view.error


async def test_a_huge_image_goes_to_the_recorded_sessions_images(mcp_images, tmp_path):
    features = TaskFeatures(recorder=SessionRecorder(tmp_path / "s.jsonl"))
    app = FleetTuiApp(
        McpTarget(urls=[mcp_images.url]),
        recorder=features.recorder,
        image_folder=features.images_folder,
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "huge_image")
        path = saved_path(shown_image(app).error)
    features.close()
    digest = hashlib.sha256(huge_png()).hexdigest()
    assert path == tmp_path / "s.images" / f"{digest}.png"
    assert [p.name for p in path.parent.iterdir()] == [path.name], "stored once"


async def test_a_png_with_a_broken_optional_chunk_is_shown(mcp_images):
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "bad_crc_image")
        view = shown_image(app)
        assert view.error is None and view.image_size == (4, 3)
        assert view.picture.getpixel((0, 0)) == (255, 0, 0)


async def test_bytes_that_are_no_image_say_so_in_plain_words(mcp_images):
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "not_an_image")
        assert "not a picture" in rendered_text(app)
        expected = f"cannot show image/png ({len(NOT_AN_IMAGE)} B): not a valid PNG"
        assert shown_image(app).error == expected


async def test_images_are_decoded_off_the_ui_thread(local_host, mcp_images, monkeypatch):
    """The screenshot pane (desktop-todo's first screenshot) and the result view."""
    decoded_in: list[threading.Thread] = []
    load = ImageFile.ImageFile.load

    def recording_load(image):
        if image.tile:  # pixel data still to decode (not an already loaded image)
            decoded_in.append(threading.current_thread())
        return load(image)

    monkeypatch.setattr(ImageFile.ImageFile, "load", recording_load)
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        assert app.screenshot_pane.image.picture is not None
        await call(pilot, "computer", {"action": "screenshot"})
        assert shown_image(app).picture is not None
    # The first screenshot, then the new one: once for both the pane and the result view.
    assert len(decoded_in) == 2
    assert threading.main_thread() not in decoded_in


def live_pictures(size: tuple[int, int]) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, PILImage.Image) and o.size == size)


async def test_twenty_huge_images_keep_memory_flat(mcp_images):
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "huge_image")
        before = resident_mb()
        for _ in range(19):
            await call(pilot, "huge_image")
        grown = resident_mb() - before
        refused = shown_image(app).error
    assert grown < 100, f"memory grew by {grown:.0f} MB over 20 results"
    assert refused.startswith("image too large (12000x12000): saved to ")


async def test_a_large_image_is_drawn_from_a_smaller_copy_and_let_go(mcp_images):
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        for shade in range(3):
            await call(pilot, "sized_image", {"side": 3000, "shade": shade})
            view = shown_image(app)
            assert view.picture.size == (DISPLAY_MAX_SIDE, DISPLAY_MAX_SIDE)
            assert view.image_size == (3000, 3000)
        assert live_pictures((3000, 3000)) == 0, "the full-size picture is not kept"
        drawn = live_pictures((DISPLAY_MAX_SIDE, DISPLAY_MAX_SIDE))
    assert drawn <= 2, f"{drawn} pictures alive: only the one shown (and its drawing copy)"


async def test_ctrl_g_takes_the_envs_screenshot_and_textuals_own_screenshot_saves_the_screen(
    local_host, tmp_path
):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        count = len(app.controller.records)
        await pilot.press("ctrl+g")
        await wait_idle(pilot)
        taken = app.controller.records[count]
        assert (taken.tool, taken.arguments) == ("computer", {"action": "screenshot"})
        app.action_screenshot(filename="screen.svg", path=str(tmp_path))
        saved = tmp_path / "screen.svg"
        # Textual writes the file from a thread: it can exist a moment before it is whole
        await wait_for(pilot, lambda: saved.exists() and "</svg>" in saved.read_text("utf-8"))
        assert saved.read_text(encoding="utf-8").lstrip().startswith("<svg")
