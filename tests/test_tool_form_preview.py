"""Fields start as painted previews and become real widgets when focused or clicked."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual import events
from textual.color import Color
from textual.widgets import Input, Select, Switch

from fleet_tui.ui.widgets.field_preview import name_width
from fleet_tui.ui.widgets.form_fields import FieldWidget
from fleet_tui.ui.widgets.tool_form import ToolForm
from tests.app_driver import screen_text, wait_for
from tests.test_tool_form import FormHost, field, opened

SCHEMA = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "description": "What it is about", "maxLength": 5},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "priority": {"type": "string", "enum": ["low", "high"]},
        "urgent": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "place": {"type": "object", "properties": {"city": {"type": "string"}}},
        "kind": {"const": "task"},
    },
    "required": ["title", "kind"],
}


def previews(app: FormHost) -> list[FieldWidget]:
    return [w for w in app.query(FieldWidget) if w.previewing]


async def test_fields_start_as_previews_that_show_names_values_and_buttons():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        # the first field has the focus (so it is real); the others are drawn
        assert field(app, "title").query_one(Input).has_focus
        assert {w.node.label for w in previews(app)} == set(SCHEMA["properties"]) - {"title"}
        assert len(app.query(Input)) == 1 and not app.query(Select) and not app.query(Switch)
        screen = screen_text(app)
        for text in ("title", "What it is about", "null", "(not sent)", "+ add item", "place"):
            assert text in screen, text
        assert '= "task"' in screen
        app.query_one(ToolForm).load({"title": "Fix [b]login[/b]", "priority": "high"})
        await pilot.pause()
        screen = screen_text(app)
        assert "Fix [b]login[/b]" in screen and "high" in screen


async def test_keys_typed_while_a_preview_is_being_built_reach_its_editor():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        note = field(app, "note")
        assert note.previewing
        # three characters queued at the preview before its Input has been built
        app.screen.set_focus(note)
        for character in "abc":
            app.post_message(events.Key(character, character))
        await wait_for(pilot, lambda: any(box.has_focus for box in note.query(Input)))
        assert not note.previewing and note.query_one(Input).value == "abc"
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.submitted == [{"note": "abc", "kind": "task"}]


async def test_clicking_a_previewed_button_or_switch_acts_on_the_real_one():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        note = field(app, "note")
        await pilot.click(note, offset=(note.content_region.width - 3, 0))  # its `null` button
        await wait_for(pilot, lambda: note.node.present and note.node.is_null)
        assert not note.previewing
        urgent = field(app, "urgent")
        switch_x = name_width(urgent.content_region.width) + 1
        await pilot.click(urgent, offset=(switch_x, 0))
        await wait_for(pilot, lambda: any(switch.value for switch in urgent.query(Switch)))
        assert app.query_one(ToolForm).value()["urgent"] is True


async def test_a_focused_switch_keeps_to_its_one_line():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        urgent = await opened(pilot, app, "urgent")
        switch = urgent.query_one(Switch)
        await wait_for(pilot, lambda: switch.has_focus and switch.region.height)
        assert switch.region.height == 1 and urgent.region.height == 1
        assert switch.styles.border_top[0] in ("", "none"), "Switch:focus draws a tall border"


async def test_errors_show_under_a_previewed_field():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "required" in screen_text(app)  # `title` is required and empty
        app.query_one(ToolForm).load({"title": "far too long", "kind": "task"})
        await pilot.pause()
        assert field(app, "title").previewing
        screen = screen_text(app)
        assert "is too long" in screen and "required" not in screen


async def test_a_collapsed_object_preview_opens_to_its_title_and_expands():
    app = FormHost(SCHEMA)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        place = await opened(pilot, app, "place")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(w.node.label == "city" for w in app.query(FieldWidget)))
        await pilot.press("tab", *"Nice", "ctrl+s")
        await pilot.pause()
    assert app.submitted == [{"place": {"city": "Nice"}, "kind": "task"}]
    assert place.node.present


WIDE_NAMES = {
    **SCHEMA["properties"],
    "scroll_direction": {"type": "string", "enum": ["up", "down"], "title": "Which way"},
    "a_really_long_parameter_name_without_spaces": {"type": "integer", "minimum": 0},
    "described": {"type": "number", "description": "A help text long enough to wrap " * 3},
    "point": {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]},
    "mode": {"enum": ["a choice whose label is far too long for a narrow form", "short"]},
    "flag_with_a_long_name": {"type": "boolean"},
}


def field_text(app: FormHost, widget: FieldWidget) -> list[str]:
    lines = screen_text(app).split("\n")
    region = widget.region
    return [line[region.x : region.right] for line in lines[region.y : region.bottom]]


Cell = tuple[str, Color | None, Color | None, bool]


def field_cells(app: FormHost, widget: FieldWidget) -> list[list[Cell]]:
    """The cells the terminal shows for `widget`: character, colour, background, bold (a
    reversed style swapped back; a blank keeps only its background)."""
    region = widget.region
    rows = []
    for strip in app.screen._compositor.render_strips()[region.y : region.bottom]:
        cells: list[Cell] = []
        for segment in strip:
            style = segment.style or Style()
            color = Color.from_rich_color(style.color) if style.color else None
            background = Color.from_rich_color(style.bgcolor) if style.bgcolor else None
            if style.reverse:
                color, background = background, color
            for character in segment.text:
                blank = character == " "
                cells.append(
                    (
                        character,
                        None if blank else color,
                        background,
                        not blank and bool(style.bold),
                    )
                )
        rows.append(cells[region.x : region.right])
    return rows


def looks_alike(drawn: Cell, real: Cell) -> bool:
    """Same character and weight; colours within 3 of 255 on each channel (rounding)."""

    def near(a: Color | None, b: Color | None) -> bool:
        if a is None or b is None:
            return a == b
        return all(abs(x - y) <= 3 for x, y in zip(a.rgb, b.rgb, strict=True))

    (character, color, background, bold) = drawn
    (real_character, real_color, real_background, real_bold) = real
    same_glyph = (character, bold) == (real_character, real_bold)
    return same_glyph and near(color, real_color) and near(background, real_background)


@pytest.mark.parametrize(
    ("width", "theme"),
    [(44, "textual-dark"), (100, "textual-dark"), (100, "textual-light"), (100, "nord")],
)
async def test_a_preview_shows_what_its_real_widgets_show(width, theme):
    app = FormHost({"type": "object", "properties": WIDE_NAMES, "required": ["title"]})
    app.theme = theme
    async with app.run_test(size=(width, 120)) as pilot:  # tall: nothing scrolls
        await pilot.pause()
        app.query_one(ToolForm).load({"mode": WIDE_NAMES["mode"]["enum"][0]})
        await pilot.pause()
        drawn = {w.node.label: (field_text(app, w), field_cells(app, w)) for w in previews(app)}
        for name in drawn:
            if name != "kind":  # a constant has nothing to focus: it stays drawn
                await opened(pilot, app, name)
        app.screen.set_focus(None)
        await pilot.pause()
        assert set(drawn) == set(WIDE_NAMES)  # loading rebuilt every field as a preview
        for name, (lines, cells) in drawn.items():
            real = field(app, name)
            assert field_text(app, real) == lines, name
            for y, (drawn_row, real_row) in enumerate(
                zip(cells, field_cells(app, real), strict=True)
            ):
                unlike = [
                    (x, a, b)
                    for x, (a, b) in enumerate(zip(drawn_row, real_row, strict=True))
                    if not looks_alike(a, b)
                ]
                assert not unlike, f"{name}, line {y}: first cells unlike {unlike[:2]}"


async def test_a_tab_typed_while_a_preview_is_being_built_moves_on_after_the_text():
    # "2" and tab typed at once into a field just focused: "2" lands in it, the focus moves on.
    properties = {name: {"type": "string"} for name in "abc"}
    app = FormHost({"type": "object", "properties": properties})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        second = field(app, "b")
        assert second.previewing
        app.screen.set_focus(second)
        for key, character in (("2", "2"), ("tab", None)):
            app.post_message(events.Key(key, character))
        third = field(app, "c")
        await wait_for(pilot, lambda: any(box.has_focus for box in third.query(Input)))
        assert app.query_one(ToolForm).value() == {"b": "2"}
