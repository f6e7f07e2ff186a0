"""A form taller than its pane shows that more fields are below: nothing hides under the Call
button, a scrollbar and "N more fields ↓" show, and scrolling reaches the last field."""

from __future__ import annotations

from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.form_fields import FieldWidget
from fleet_tui.ui.widgets.tool_form import FormFields
from tests.app_driver import local_target, wait_connected, wait_for


async def test_fields_below_the_fold_are_scrolled_to_not_hidden(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"))
    async with app.run_test(size=(120, 22)) as pilot:  # create_issue's form overflows here
        await wait_connected(pilot)
        await app.show_tool("create_issue")
        fields = app.query_one(FormFields)
        await wait_for(pilot, lambda: fields.region.height)
        await pilot.pause(0.2)
        cue = app.query_one(".tool-form-below")
        below = fields.fields_below()
        assert below > 0 and str(cue.content) == f"{below} more fields ↓"
        buttons = app.query_one("#tool-actions").region
        assert fields.region.bottom <= buttons.y, "the form runs under the Call button"
        assert fields.max_scroll_y > 0 and fields.show_vertical_scrollbar
        fields.scroll_end(animate=False)
        await pilot.pause(0.2)
        last = list(fields.query_children(FieldWidget))[-1]
        assert fields.region.contains_region(last.region)
        assert str(cue.content) == ""
