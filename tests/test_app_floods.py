"""The app under floods from a real MCP server (tests/fixtures/flood_server.py, a child process
over stdio, so the memory measured here is the app's): a reply of very many content blocks."""

from __future__ import annotations

import sys

from fleet_tui.envs.block_merge import MAX_BLOCKS
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import (
    SIZE,
    call,
    rendered_text,
    resident_mb,
    wait_connected,
    wait_for,
)

FLOOD = McpTarget(stdio=[f"{sys.executable} -m tests.fixtures.flood_server"])


async def test_a_reply_of_150k_text_blocks_is_merged_and_memory_stays_bounded() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        before = resident_mb()
        record = await call(pilot, "blocks", {"count": 150_000}, timeout=120)
        grown = resident_mb() - before
        assert record.status == "ok"
        [block] = record.result.blocks
        assert block.text.startswith("b0\nb1\nb2\n") and block.text.endswith("\nb149999")
        assert "149,999 blocks merged" in rendered_text(app)
        assert grown < 200, f"the app grew by {grown:.0f} MB"
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, 30)
    assert app.return_code == 0


async def test_a_reply_of_few_blocks_keeps_each_block() -> None:
    app = FleetTuiApp(FLOOD)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        record = await call(pilot, "blocks", {"count": MAX_BLOCKS})
        assert [b.text for b in record.result.blocks] == [f"b{i}" for i in range(MAX_BLOCKS)]
        assert "merged" not in rendered_text(app)
