"""Every corpus schema mounts as a ToolForm, shows loaded arguments without changing them, and
goes through the raw JSON view and back unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from textual.app import App, ComposeResult
from textual.containers import Vertical

from fleet_tui.forms import build_form
from fleet_tui.ui.widgets.tool_form import ToolForm

CORPUS = sorted((Path(__file__).parent / "data" / "schemas").glob("*.json"))
ODD_SCHEMAS = [True, {}, {"type": "string"}, {"properties": []}, {"$ref": "#"}, {"oneOf": []}]


class Holder(App):
    def compose(self) -> ComposeResult:
        yield Vertical(id="holder")


async def test_every_corpus_schema_mounts_and_keeps_loaded_arguments():
    app = Holder()
    async with app.run_test(size=(100, 40)) as pilot:
        holder = app.query_one("#holder")
        for index, path in enumerate(CORPUS):
            entry = json.loads(path.read_text())
            model = build_form(entry["schema"])
            model.load(entry["valid"])
            await holder.remove_children()
            form = ToolForm(model)
            await holder.mount(form)
            await pilot.pause()
            assert form.value() == entry["valid"], entry["name"]
            if index % 4 == 0:  # the round trip through the JSON view, for a sample
                await form.action_toggle_raw()
                await form.action_toggle_raw()
                await pilot.pause()
                assert form.value() == entry["valid"], entry["name"]
            assert form.errors() == [], entry["name"]


async def test_odd_schemas_still_give_a_form():
    app = Holder()
    async with app.run_test(size=(80, 20)) as pilot:
        holder = app.query_one("#holder")
        for schema in ODD_SCHEMAS:
            await holder.remove_children()
            form = ToolForm(schema)
            await holder.mount(form)
            await pilot.pause()
            form.load({"a": [1, None]})
            await pilot.pause()
            assert form.value() == {"a": [1, None]}


async def test_a_form_removed_while_it_is_being_shown_is_no_error():
    wide = {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(30)}}
    app = Holder()
    async with app.run_test(size=(80, 20)) as pilot:
        holder = app.query_one("#holder")
        for _ in range(3):  # another tool chosen before the form's first refresh...
            await holder.mount(ToolForm(wide))
            await holder.remove_children()
        for _ in range(3):  # ...or while it is being removed, when that refresh comes
            await holder.mount(ToolForm(wide))
            removal = holder.remove_children()
            await pilot.pause()
            await removal
        await holder.mount(ToolForm({"type": "object", "properties": {"a": {"type": "string"}}}))
        await pilot.pause()
        assert len(holder.query(ToolForm)) == 1  # and the app did not fail (run_test raises)
