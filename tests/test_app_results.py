"""The app's result view against real MCP servers: images, JSON tree, errors, a 1 MB result."""

from __future__ import annotations

import threading

from PIL import Image as PILImage

from fleet_tui.ui import result_format
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.result_format import plan_result
from fleet_tui.ui.widgets.json_tree import JsonTree
from fleet_tui.ui.widgets.result_view import JsonBlock
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for


async def test_image_result_full_screen_save_and_json_tree(two_servers, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "picture")
        views = list(app.query("#rendered ImageView"))
        assert len(views) == 1 and views[0].picture is not None
        assert views[0].picture.size == (4, 3)
        # Fitted with the aspect ratio kept: 4x3 pixels in 10x20-pixel cells -> rows = cols * 3/8.
        columns, rows = views[0].rendered_cells
        assert abs(rows - columns * 3 / 8) <= 1
        await pilot.click("#rendered")
        await pilot.press("f")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ImageScreen")
        await pilot.press("s")
        await wait_for(pilot, lambda: list(tmp_path.glob("fleet-tui-*.png")))
        [saved] = tmp_path.glob("fleet-tui-*.png")
        assert PILImage.open(saved).size == (4, 3)
        await pilot.press("escape")
        await wait_for(pilot, lambda: type(app.screen).__name__ != "ImageScreen")
        await call(pilot, "echo", {"text": '{"items": [{"id": 1}, {"id": 2}], "ok": true}'})
        [block] = app.query("#rendered JsonBlock")
        assert '"items"' in str(block.query_one(".json").content)
        await pilot.click("#rendered")
        await pilot.press("t")
        await pilot.pause()
        tree = block.query_one(JsonTree)
        labels = [str(node.label) for node in tree.root.children]
        assert labels[0].startswith("items: [] 2 items") and labels[1] == "ok: true"
        assert not tree.root.children[0].children, "branches are built only when opened"
        tree.root.children[0].expand()
        await pilot.pause()
        assert len(tree.root.children[0].children) == 2


async def test_tool_error_and_failed_call_are_shown_as_errors(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "fail", {"reason": "[bold red]broken[/]"})
        assert entry.status == "error"
        assert app.result_view.has_class("-error")
        assert "[bold red]broken[/]" in rendered_text(app)


async def test_one_megabyte_result_shows_in_a_pager(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "big", {"kib": 1024})
        assert entry.status == "ok"
        pagers = list(app.query("#rendered TextPager")) + [
            b for b in app.query("#rendered JsonBlock") if isinstance(b, JsonBlock)
        ]
        assert pagers, "a big result goes to a pager"
        assert entry.result.size_bytes >= 1024 * 1024 or len(entry.result.text()) >= 1024 * 1024
        await pilot.press("f3")
        await pilot.pause()


async def test_a_small_result_is_formatted_on_the_loop_and_a_big_one_in_a_thread(
    two_servers, monkeypatch
):
    """A small result skips the hand-off to a thread and back (milliseconds on a busy
    machine); a big one still leaves the UI free while it is formatted."""
    formatted_in: list[threading.Thread] = []

    def recording(*args):
        formatted_in.append(threading.current_thread())
        return plan_result(*args)

    monkeypatch.setattr(result_format, "plan_result", recording)  # as the call path finds it
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await call(pilot, "echo", {"text": "small"})
        await call(pilot, "echo", {"text": "big " * 2000})
        assert "big big" in rendered_text(app)
    assert formatted_in[0] is threading.main_thread()
    assert formatted_in[1] is not threading.main_thread()
