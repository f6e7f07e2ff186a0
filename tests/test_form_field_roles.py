"""Plain-action forms: the extras field (OpenEnv's `metadata`) comes last, folded, and long
strings (code, messages, prompts) get a multi-line editor. The schema is a real openenv-core
action's (ShapesAction), as the server lists it."""

from __future__ import annotations

from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from fleet_tui.forms import ScalarNode, build_form
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected, wait_for


async def action_schema(base_url: str) -> dict:
    env = OpenEnvEnv(OpenEnvTarget(url=base_url), reset_on_connect=False)
    await env.connect()
    try:
        (tool,) = await env.list_tools()
    finally:
        await env.close()
    return tool.input_schema


async def test_metadata_comes_after_the_actions_own_fields(shapes_openenv_server):
    schema = await action_schema(shapes_openenv_server.base_url)
    assert next(iter(schema["properties"])) == "metadata"
    form = build_form(schema)
    assert [node.key for node in form.root.children] == ["message", "code", "column", "metadata"]
    form.load({"message": "e2e4", "metadata": {"why": "test"}})
    assert form.value() == {"message": "e2e4", "metadata": {"why": "test"}}


def test_a_required_metadata_field_keeps_its_place():
    schema = {
        "type": "object",
        "properties": {"metadata": {"type": "object"}, "move": {"type": "string"}},
        "required": ["metadata"],
    }
    assert [node.key for node in build_form(schema).root.children] == ["metadata", "move"]


async def test_code_and_messages_are_multi_line_and_keep_their_newlines(shapes_openenv_server):
    form = build_form(await action_schema(shapes_openenv_server.base_url))
    nodes = {node.key: node for node in form.root.children}
    assert nodes["message"].multiline and nodes["code"].multiline
    assert not isinstance(nodes["column"], ScalarNode) or not nodes["column"].multiline
    form.load({"message": "line one\nline two", "code": "def f():\n\treturn 1"})
    assert isinstance(form.root.child("message"), ScalarNode)
    assert form.value()["code"] == "def f():\n\treturn 1"


def test_multi_line_hints_in_the_schema():
    properties = {
        "notes": {"type": "string", "contentMediaType": "text/markdown"},
        "body_text": {"type": "string"},
        "essay": {"type": "string", "maxLength": 5000},
        "ref": {"type": "string", "maxLength": 40},
        "title": {"type": "string"},
    }
    form = build_form({"type": "object", "properties": properties})
    multiline = {node.key for node in form.root.children if node.multiline}
    assert multiline == {"notes", "body_text", "essay"}


async def test_typing_into_the_step_form_lands_in_the_message_not_metadata(
    shapes_openenv_server,
):
    from textual.widgets import TextArea

    from fleet_tui.ui.widgets.form_fields.long_text import FoldedRawField

    app = FleetTuiApp(OpenEnvTarget(url=shapes_openenv_server.base_url))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("step")
        await wait_for(pilot, lambda: app.query(TextArea))
        await pilot.pause()
        app.tool_panel.focus_form()
        await pilot.pause()
        assert isinstance(app.focused, TextArea)
        await pilot.press(*"e2e4", "enter", *"d7d5")
        await pilot.pause()
        folded = app.query_one(FoldedRawField)
        assert folded.query_one("FieldGroup").collapsed
        form = app.query_one("ToolForm")
        assert form.form.value().get("message") == "e2e4\nd7d5"
        assert "metadata" not in form.form.value()


async def test_the_raw_view_edits_its_own_json_not_a_multi_line_field(shapes_openenv_server):
    from textual.widgets import TextArea

    app = FleetTuiApp(OpenEnvTarget(url=shapes_openenv_server.base_url))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("step", {"message": "hi"})
        await wait_for(pilot, lambda: app.query(TextArea))
        form = app.query_one("ToolForm")
        await form.action_toggle_raw()
        await pilot.pause()
        editor = form.query_one("#raw-editor", TextArea)
        assert '"message": "hi"' in editor.text and app.focused is editor
        await form.action_toggle_raw()
        await pilot.pause()
        assert form.form.value().get("message") == "hi"


def test_names_say_multi_line_only_for_the_arguments_themselves():
    item = {"type": "object", "properties": {"text": {"type": "string"}}}
    schema = {
        "type": "object",
        "properties": {"text": {"type": "string"}, "steps": {"type": "array", "items": item}},
    }
    form = build_form(schema)
    form.load({"text": "a", "steps": [{"text": "b"}]})
    assert form.root.child("text").multiline
    assert not form.field_at(("steps", 0, "text")).multiline
