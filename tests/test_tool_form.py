"""ToolForm driven by keystrokes in a real Textual app (Pilot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input

from fleet_tui.ui.widgets.form_fields import FieldWidget
from fleet_tui.ui.widgets.tool_form import ToolForm

SCHEMAS = Path(__file__).parent / "data" / "schemas"


def corpus_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMAS / f"{name}.json").read_text())["schema"]


class FormHost(App):
    """A test app hosting one ToolForm and recording what it submits."""

    def __init__(self, schema: Any) -> None:
        super().__init__()
        self.schema = schema
        self.submitted: list[Any] = []

    def compose(self) -> ComposeResult:
        yield ToolForm(self.schema)

    def on_tool_form_submitted(self, event: ToolForm.Submitted) -> None:
        self.submitted.append(event.arguments)


def field(app: App, *path: str | int) -> FieldWidget:
    """The (first) field widget bound to the node at `path`."""
    return next(w for w in app.query(FieldWidget) if w.node.path == path)


def item_rows(app: App, *path: str | int) -> list:
    """The rows of the list editor at `path` (not those of lists nested inside it)."""
    return list(field(app, *path).query_one(".array-items").query_children(".array-row"))


async def type_into(pilot, app: App, path: tuple, text: str) -> None:
    field(app, *path).query_one(Input).focus()
    await pilot.press(*text)


async def test_nested_object_filled_by_keystrokes_is_submitted():
    app = FormHost(corpus_schema("pydantic_create_contact"))
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.pause()
        field(app, "contact", "name").query_one(Input).focus()
        await pilot.press(*"Ada", "tab", *"ada@example.com")
        await pilot.press("tab", "enter")  # focus the collapsed `address` title and expand it
        await pilot.pause()
        await pilot.press("tab", *"1 Main St", "tab", *"Paris")
        await pilot.press("ctrl+s")
        await pilot.pause()
    address = {"street": "1 Main St", "city": "Paris"}
    contact = {"name": "Ada", "email": "ada@example.com", "address": address, "tags": []}
    assert app.submitted == [{"contact": contact, "notify": False}]


async def test_array_of_objects_add_fill_move_remove():
    app = FormHost(corpus_schema("memory_create_entities"))
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        entities = field(app, "entities")
        for name in ("Ada", "Bob", "Cy"):
            entities.query_one(".add-item").focus()
            await pilot.press("enter")
            await pilot.pause()
            index = len(entities.node.items) - 1
            await type_into(pilot, app, ("entities", index, "name"), name)
            await pilot.press("tab", *"person")
        # give Bob an observation: the nested list's add button, then type
        field(app, "entities", 1, "observations").query_one(".add-item").focus()
        await pilot.press("enter")
        await pilot.pause()
        await type_into(pilot, app, ("entities", 1, "observations", 0), "likes tea")
        # move Bob up, then remove Cy
        item_rows(app, "entities")[1].query_one(".move-up").focus()
        await pilot.press("enter")
        await pilot.pause()
        item_rows(app, "entities")[2].query_one(".remove").focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.submitted == [
        {
            "entities": [
                {"name": "Bob", "entityType": "person", "observations": ["likes tea"]},
                {"name": "Ada", "entityType": "person", "observations": []},
            ]
        }
    ]
