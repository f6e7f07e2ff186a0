"""One click on a field drawn as a preview acts, as the terminal sends it: a press, a moment,
a release (the app makes the Click when both land on the same widget)."""

from __future__ import annotations

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget

from fleet_tui.ui.widgets.field_preview import name_width
from tests.app_driver import wait_for
from tests.test_tool_form import FormHost, field
from tests.test_tool_form_preview import SCHEMA


async def human_click(pilot: Pilot, widget: Widget, offset: tuple[int, int]) -> None:
    """Press and release at `offset` in `widget`, posted to the app as the driver posts them."""
    x, y = widget.region.x + offset[0], widget.region.y + offset[1]
    for event in (events.MouseDown, events.MouseUp):
        pilot.app.post_message(event(None, x, y, 0, 0, 1, False, False, False, x, y))
        await pilot.pause(0.1)


@pytest.mark.parametrize("focused_first", [None, "title", "urgent"])
async def test_one_click_on_add_item_adds_one_item(focused_first):
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        if focused_first:
            field(app, focused_first).focus()
            await pilot.pause(0.2)
        tags = field(app, "tags")
        assert tags.previewing
        await human_click(pilot, tags, (5, 1))  # on `+ add item`, under the name
        await wait_for(pilot, lambda: tags.node.items, timeout=5)
        await pilot.pause(0.3)
        assert len(tags.node.items) == 1


async def test_one_click_on_a_previewed_null_button_or_switch_acts_once():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        note = field(app, "note")
        await human_click(pilot, note, (note.content_region.width - 3, 0))
        await wait_for(pilot, lambda: note.node.present and note.node.is_null, timeout=5)
        urgent = field(app, "urgent")
        await human_click(pilot, urgent, (name_width(urgent.content_region.width) + 1, 0))
        await pilot.pause(0.3)
        assert app.query_one("ToolForm").value()["urgent"] is True


async def test_a_preview_removed_while_pressed_lets_the_mouse_go():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        tags = field(app, "tags")
        x, y = tags.region.x + 5, tags.region.y + 1
        app.post_message(events.MouseDown(None, x, y, 0, 0, 1, False, False, False, x, y))
        await wait_for(pilot, lambda: app.mouse_captured is tags, timeout=5)
        app.query_one("ToolForm").load({"title": "new"})  # rebuilds every field
        await wait_for(pilot, lambda: not tags.is_attached, timeout=5)
        assert app.mouse_captured is None
