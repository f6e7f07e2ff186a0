"""Old calls' results are released from memory past a bound in bytes, and read back from the
session file when opened in History; an unrecorded session says plainly that they are gone."""

from __future__ import annotations

from fleet_tui.envs.base import ImageBlock, TextBlock, ToolResult
from fleet_tui.envs.targets import McpTarget
from fleet_tui.result_memory import ResultMemory, result_bytes
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.session_records import CallRecord, CallStatus
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.result_view import ResultView
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for, wait_idle
from tests.test_app_images import shown_image


def finished(number: int, text_bytes: int, reward: float | None = None) -> CallRecord:
    result = ToolResult(blocks=[TextBlock(text="x" * text_bytes)], reward=reward)
    return CallRecord(number=number, tool="echo", arguments={}, status=CallStatus.OK, result=result)


def test_the_newest_results_are_kept_up_to_the_bound_in_bytes():
    memory = ResultMemory(recorder=None, limit_bytes=3000)
    records = [finished(n, 1000, reward=float(n)) for n in range(1, 6)]
    for record in records:
        memory.keep(record)
    assert [r.number for r, _ in memory.kept] == [3, 4, 5]
    assert memory.kept_bytes == 3000
    assert [r.released for r in records] == [True, True, False, False, False]
    old = records[0].result
    assert old is not None and old.blocks == [] and old.reward == 1.0, "reward and flags stay"
    assert records[4].result is not None and records[4].result.text() == "x" * 1000


def test_the_latest_result_is_kept_whatever_its_size():
    memory = ResultMemory(recorder=None, limit_bytes=10)
    big = finished(1, 5000)
    memory.keep(big)
    assert not big.released and memory.kept_bytes == 5000
    memory.keep(finished(2, 1))
    assert big.released and memory.kept_bytes == 1


def test_image_bytes_count_toward_the_bound():
    result = ToolResult(blocks=[TextBlock(text="abc"), ImageBlock(data=b"\0" * 900)])
    assert result_bytes(result) == 903


async def history_shows(pilot, number: int) -> None:
    app = pilot.app
    app.action_show_history()
    app.history.move_cursor(row=number - 1)
    view = app.query_one(ResultView)
    await wait_for(pilot, lambda: str(view.border_title).startswith(f"#{number} "))
    await wait_idle(pilot)


async def test_a_released_result_opened_from_history_is_read_back_from_the_session_file(
    mcp_images, tmp_path
):
    recorder = SessionRecorder(tmp_path / "s.jsonl")
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]), recorder=recorder)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.controller.result_memory.limit_bytes = 1  # each call releases the one before
        first = await call(pilot, "huge_image")
        shown = await call(pilot, "sized_image", {"side": 40, "shade": 7})
        await wait_for(pilot, lambda: shown_image(app).picture is not None)
        assert first.released and first.result is not None and first.result.blocks == []
        await call(pilot, "not_an_image")
        await history_shows(pilot, 1)
        assert "a huge picture" in rendered_text(app)
        assert shown_image(app).image_size == (12000, 12000)
        await history_shows(pilot, 2)
        await wait_for(pilot, lambda: shown_image(app).picture is not None)
        assert shown.released and shown_image(app).image_size == (40, 40)
        assert shown_image(app).picture.getpixel((3, 3))[:3] == (7, 128, 248)
    recorder.close()


async def test_without_recording_a_released_result_says_so_in_plain_words(mcp_images):
    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.controller.result_memory.limit_bytes = 1
        await call(pilot, "huge_image")
        await call(pilot, "not_an_image")
        await history_shows(pilot, 1)
        text = rendered_text(app)
        assert "released from memory" in text and "--no-record" in text
        assert "a huge picture" not in text


async def test_the_raw_reply_keeps_no_base64_text_once_decoded(mcp_images):
    from tests.fixtures.mcp_servers import screenshot_png

    app = FleetTuiApp(McpTarget(urls=[mcp_images.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "screenshot", {"seed": 1})
    result = entry.result
    assert result is not None and result.images()[0].data == screenshot_png(1)
    [image] = result.raw["content"]
    assert image["data"].startswith("<") and image["data"].endswith(
        "characters of base64, decoded>"
    )
    assert result.size_bytes > len(screenshot_png(1)), "the size on the wire is kept"
