"""ToolForm driven by keystrokes in a real Textual app (Pilot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Button, Input, Select, TextArea
from textual.widgets.collapsible import CollapsibleTitle

from fleet_tui.ui.widgets.form_fields import FieldGroup, FieldWidget
from fleet_tui.ui.widgets.tool_form import ToolForm
from tests.app_driver import wait_for

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
    return field(app, *path).rows


async def opened(pilot, app: App, *path: str | int) -> FieldWidget:
    """The field at `path` as real widgets (a field drawn as a preview is built on focus)."""
    widget = field(app, *path)
    if widget.previewing:
        widget.focus()
        for _ in range(100):  # building the widgets takes a few turns of the app
            await pilot.pause()
            if not widget.previewing and widget.query("*"):
                break
    assert not widget.previewing
    return widget


async def type_into(pilot, app: App, path: tuple, text: str) -> None:
    (await opened(pilot, app, *path)).query_one(Input).focus()
    await pilot.press(*text)


async def test_nested_object_filled_by_keystrokes_is_submitted():
    app = FormHost(corpus_schema("pydantic_create_contact"))
    async with app.run_test(size=(100, 50)) as pilot:
        await pilot.pause()
        await type_into(pilot, app, ("contact", "name"), "Ada")
        await pilot.press("tab", *"a@b.io")
        await pilot.press("tab", "enter")  # focus the collapsed `address` title and expand it
        await pilot.pause()
        await pilot.press("tab", *"1 Rue", "tab", *"Nice")
        await pilot.press("ctrl+s")
        await pilot.pause()
    address = {"street": "1 Rue", "city": "Nice"}
    contact = {"name": "Ada", "email": "a@b.io", "address": address, "tags": []}
    assert app.submitted == [{"contact": contact, "notify": False}]


async def test_array_of_objects_add_fill_move_remove():
    app = FormHost(corpus_schema("memory_create_entities"))
    async with app.run_test(size=(100, 60)) as pilot:
        await pilot.pause()
        entities = await opened(pilot, app, "entities")
        for name in ("A", "B", "C"):
            entities.query_one(".add-item").focus()
            await pilot.press("enter")
            await pilot.pause()
            index = len(entities.node.items) - 1
            await type_into(pilot, app, ("entities", index, "name"), name)
            await pilot.press("tab", "p")
        # give B an observation: the nested list's add button, then type
        (await opened(pilot, app, "entities", 1, "observations")).query_one(".add-item").focus()
        await pilot.press("enter")
        await pilot.pause()
        await type_into(pilot, app, ("entities", 1, "observations", 0), "tea")
        # move B up, then remove C
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
                {"name": "B", "entityType": "p", "observations": ["tea"]},
                {"name": "A", "entityType": "p", "observations": []},
            ]
        }
    ]


def group_titles(widget: Widget) -> list[str]:
    """The titles of the collapsible groups under `widget`, as shown."""
    return [title.label.plain for title in widget.query(CollapsibleTitle)]


async def test_object_titles_follow_edits_inside_and_moves_around():
    """An object's title says whether it is sent, and a list item's title its place: typing
    into a left-out object sends it, moving an item renumbers the items."""
    item = {"type": "object", "properties": {"at": {"type": "string"}}}
    app = FormHost(
        {
            "type": "object",
            "properties": {
                "address": {"type": "object", "properties": {"street": {"type": "string"}}},
                "stops": {"type": "array", "items": item},
            },
        }
    )
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        address = await opened(pilot, app, "address")
        assert group_titles(address) == ["address  (not sent)"]
        address.query_one(FieldGroup).collapsed = False

        def street_shown() -> bool:
            return any(f.node.path == ("address", "street") for f in address.query(FieldWidget))

        await wait_for(pilot, street_shown)
        await type_into(pilot, app, ("address", "street"), "x")

        def address_titled_as_sent() -> bool:
            return group_titles(address) == ["address"]

        await wait_for(pilot, address_titled_as_sent)

        stops = await opened(pilot, app, "stops")
        add = stops.query_one(".add-item", Button)
        add.press()
        await wait_for(pilot, lambda: len(item_rows(app, "stops")) == 1)
        add.press()
        await wait_for(pilot, lambda: len(item_rows(app, "stops")) == 2)
        item_rows(app, "stops")[1].query_one(".move-up", Button).press()

        def items_numbered_in_order() -> bool:
            return group_titles(stops) == ["#1 *", "#2 *"]

        await wait_for(pilot, items_numbered_in_order)


async def choose(pilot, select: Select, label: str) -> None:
    """Pick an option of a Select by keyboard: open it, type the label to jump there, enter."""
    select.focus()
    await pilot.press("enter", *label, "enter")
    await pilot.pause()


async def test_union_branch_chosen_and_filled():
    app = FormHost(corpus_schema("pydantic_run_actions"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        (await opened(pilot, app, "actions")).query_one(".add-item").focus()
        await pilot.press("enter")
        await pilot.pause()
        union = field(app, "actions", 0)
        await choose(pilot, union.query_one(Select), "type")
        await type_into(pilot, app, ("actions", 0, "text"), "hello")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.submitted == [
        {"actions": [{"type": "type", "text": "hello"}], "screenshot_after": True}
    ]


MEETING = {
    "title": "Sync",
    "day": "2026-11-22",
    "starts_at": "2026-11-22T15:00:00Z",
    "attendee_ids": ["0b9e4a4e-6f0e-4b8e-9a3a-1c2d3e4f5a6b"],
    "room": "beta",
}


async def test_nullable_enum_set_to_null_then_cleared():
    app = FormHost(corpus_schema("pydantic_schedule_meeting"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.query_one(ToolForm).load(MEETING)
        await pilot.pause()
        room = (await opened(pilot, app, "room")).query_one(Select)
        assert room.value == 1  # "beta"
        await choose(pilot, room, "null")
        await pilot.press("ctrl+s")
        await choose(pilot, (await opened(pilot, app, "room")).query_one(Select), "(not sent)")
        await pilot.press("ctrl+s")
        await pilot.pause()
    without_room = {k: v for k, v in MEETING.items() if k != "room"}
    assert app.submitted == [{**MEETING, "room": None}, without_room]


async def test_raw_json_toggle_both_ways_keeps_invalid_text():
    app = FormHost(corpus_schema("fetch_fetch"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await type_into(pilot, app, ("url",), "http://a")
        await pilot.press("f4")
        await pilot.pause()
        form = app.query_one(ToolForm)
        editor = form.query_one(TextArea)
        assert form.raw_mode and editor.has_focus
        assert json.loads(editor.text) == {
            "url": "http://a",
            "max_length": 5000,
            "start_index": 0,
            "raw": False,
        }
        await pilot.press("f7", *'{"url": ')  # f7: select all, then type over it
        await pilot.press("f4")  # does not parse: stays in the editor, says why, keeps the text
        await pilot.pause()
        assert form.raw_mode
        assert form.query_one(".tool-form-raw-error").has_class("shown")
        assert editor.text == '{"url": '
        await pilot.press(*'"http://b", "raw": true}', "f4")
        await pilot.pause()
        assert not form.raw_mode
        assert (await opened(pilot, app, "url")).query_one(Input).value == "http://b"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.submitted == [{"url": "http://b", "raw": True}]


async def test_raw_json_field_for_a_free_form_subtree():
    schema = {"type": "object", "properties": {"meta": {}, "n": {"type": "integer"}}}
    app = FormHost(schema)
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        await type_into(pilot, app, ("meta",), '{"a":[1')
        await pilot.pause()
        form = app.query_one(ToolForm)
        assert [e.path for e in form.errors()] == [("meta",)]  # invalid JSON, reported
        await pilot.press(*"]}", "tab", "7", "ctrl+s")
        await pilot.pause()
    assert app.submitted == [{"meta": {"a": [1]}, "n": 7}]


async def test_wide_schema_mounts_sections_lazily_and_lists_hidden_errors():
    props = {f"f{i}": {"type": "string"} for i in range(60)}
    app = FormHost({"type": "object", "properties": props, "required": ["f45"]})
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        form = app.query_one(ToolForm)
        assert len(form.query(FieldWidget)) == 20  # only the first section is mounted
        problems = form.query_one(".tool-form-problems")
        await wait_for(pilot, lambda: problems.has_class("shown"))  # after the first refresh
        assert "f45: required" in str(problems.content)
        sections = form.query("FieldSection")
        assert len(sections) == 3
        sections[2].focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(form.query(FieldWidget)) == 40)
        assert not problems.has_class("shown")  # the error now shows under its field
        await type_into(pilot, app, ("f45",), "x")
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.submitted == [{"f45": "x"}]


async def test_bad_json_hidden_in_a_closed_section_is_shown_and_focused_not_sent():
    props = {f"f{i}": {} if i == 30 else {"type": "string"} for i in range(60)}
    app = FormHost({"type": "object", "properties": props})
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        form = app.query_one(ToolForm)
        section = form.query("FieldSection")[1]
        section.focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(form.query(FieldWidget)) == 40)
        await type_into(pilot, app, ("f30",), "x")
        section.focus()
        await pilot.press("enter", "ctrl+s")  # the section is closed, then the form submitted
        bad = field(app, "f30").query_one(Input)
        await wait_for(pilot, lambda: app.focused is bad)
        assert section.shown and bad.value == "x"
    assert app.submitted == []


async def test_bad_json_in_a_collapsed_object_is_shown_and_focused_not_sent():
    outer = {"type": "object", "properties": {"meta": {}}}
    app = FormHost({"type": "object", "properties": {"outer": outer}, "required": ["outer"]})
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        await type_into(pilot, app, ("outer", "meta"), "x")
        group = field(app, "outer").query_one(FieldGroup)
        group.query_one("CollapsibleTitle").focus()
        await pilot.press("enter")  # closes the group
        await wait_for(pilot, lambda: group.collapsed)
        await pilot.press("ctrl+s")
        bad = field(app, "outer", "meta").query_one(Input)
        await wait_for(pilot, lambda: app.focused is bad)
        assert not group.collapsed and bad.value == "x"
    assert app.submitted == []


async def test_terminal_escapes_in_schema_or_values_never_reach_the_screen():
    evil = "\x1b[31mred\x07"
    schema = {
        "type": "object",
        "properties": {
            f"key{evil}": {"type": "string", "description": f"[/] {evil}", "enum": [evil, "ok"]},
            "text": {"type": "string", "title": evil},
        },
    }
    app = FormHost(schema)
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        arguments = {"text": f"two\nlines {evil}", f"extra{evil}": 1}
        app.query_one(ToolForm).load(arguments)
        await pilot.pause()
        assert "\x1b" not in app.export_screenshot()
        assert app.query_one(ToolForm).value() == arguments


async def test_key_value_editor_add_rename_fill_remove():
    app = FormHost(corpus_schema("pydantic_search_issues"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await type_into(pilot, app, ("query",), "bug")
        labels = await opened(pilot, app, "labels")
        for _ in range(2):
            labels.query_one(".add-entry").focus()
            await pilot.press("enter")
            await pilot.pause()
        first_key = labels.query(".map-key").first(Input)
        first_key.focus()
        await pilot.press("ctrl+u", *"team", "tab", *"ui")
        labels.query(".remove-entry").last().focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.submitted == [{"query": "bug", "limit": 20, "labels": {"team": "ui"}}]


async def test_two_entries_under_one_key_are_not_sent_as_one():
    app = FormHost({"type": "object", "additionalProperties": {"type": "string"}})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        extras = await opened(pilot, app)
        for _ in range(2):
            extras.query_one(".add-entry").focus()
            await pilot.press("enter")
            await pilot.pause()
        keys = extras.query(".map-key")
        keys.first(Input).focus()
        await pilot.press("tab", "a", "tab", "tab", "ctrl+u", *"key1", "tab", "b", "ctrl+s")
        await pilot.pause()
        assert app.submitted == []  # {"key1": "b"} would have lost "a"
        assert [e.message for e in app.query_one(ToolForm).errors()] == ["duplicate key"]
        assert app.focused.value == "b"  # the field of the second entry
