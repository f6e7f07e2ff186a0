"""Snapshots of a few ToolForms (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

from fleet_tui.ui.widgets.tool_form import ToolForm
from tests.app_driver import hold_cursors_still
from tests.test_tool_form import FormHost, corpus_schema

SIZE = (90, 30)


def test_snapshot_nested_object_with_errors(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        hold_cursors_still(pilot.app)
        await pilot.pause()

    assert snap_compare(
        FormHost(corpus_schema("pydantic_create_contact")),
        terminal_size=SIZE,
        run_before=run_before,
    )


def test_snapshot_union_items_loaded(snap_compare):
    arguments = {
        "actions": [
            {"type": "click", "x": 3, "y": 4, "button": "right"},
            {"type": "type", "text": "[b]hi[/b]"},
        ],
        "screenshot_after": False,
    }

    async def run_before(pilot):
        await pilot.pause()
        pilot.app.query_one(ToolForm).load(arguments)
        await pilot.pause()
        hold_cursors_still(pilot.app)
        await pilot.pause()

    assert snap_compare(
        FormHost(corpus_schema("pydantic_run_actions")), terminal_size=SIZE, run_before=run_before
    )


def test_snapshot_raw_json_view(snap_compare):
    async def run_before(pilot):
        await pilot.pause()
        pilot.app.query_one(ToolForm).load({"url": "https://example.com/", "raw": True})
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        hold_cursors_still(pilot.app)
        await pilot.pause()

    assert snap_compare(
        FormHost(corpus_schema("fetch_fetch")), terminal_size=SIZE, run_before=run_before
    )
