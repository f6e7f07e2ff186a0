"""The tool list on its own: a virtual list (only rows on screen are drawn) driven by keys and
the mouse, and the fuzzy ranking behind its filter."""

from __future__ import annotations

import re

from textual.app import App, ComposeResult

from fleet_tui.envs.base import Tool
from fleet_tui.ui.fuzzy import FuzzyRanker, fuzzy_rank, word_hits
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_rows import ToolRows

SIZE = (60, 24)


def many_tools(count: int) -> list[Tool]:
    return [
        Tool(
            name=f"tool_{index:04}",
            description=f"Tool number {index}" if index % 3 else "",
            endpoint=f"http://127.0.0.1:{9000 + index % 2}/mcp",
            broken="its schema was refused" if index == 5 else None,
        )
        for index in range(count)
    ]


class ListApp(App):
    def __init__(self, tools: list[Tool]) -> None:
        super().__init__()
        self.tools = tools
        self.chosen: list[str] = []

    def compose(self) -> ComposeResult:
        yield ToolList(id="tools")

    def on_mount(self) -> None:
        self.query_one(ToolList).set_tools(self.tools)

    def on_tool_list_chosen(self, event: ToolList.Chosen) -> None:
        self.chosen.append(event.tool.name)


def drawn_rows(app: ListApp) -> set[int]:
    """The rows the list drew, counted by wrapping its row renderer."""
    tool_list = app.query_one(ToolList)
    drawn: set[int] = set()
    render = tool_list.rows.render_row

    def counting(index: int):
        drawn.add(index)
        return render(index)

    tool_list.rows.render_row = counting
    tool_list.rows.forget_drawn()
    return drawn


async def test_only_the_rows_on_screen_are_drawn():
    app = ListApp(many_tools(2000))
    async with app.run_test(size=SIZE) as pilot:
        drawn = drawn_rows(app)
        await pilot.pause()
        assert drawn and max(drawn) < 20, "rows below the screen are not drawn"
        rows = app.query_one(ToolRows)
        rows.focus()
        await pilot.press("end")
        await pilot.pause()
        assert 1999 in drawn and len(drawn) < 60


async def test_keys_move_the_highlight_and_enter_chooses():
    app = ListApp(many_tools(100))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tool_list = app.query_one(ToolList)
        rows = tool_list.rows
        assert rows.highlighted == 0
        rows.focus()
        await pilot.press("down", "down")
        assert rows.highlighted == 2
        await pilot.press("up")
        assert rows.highlighted == 1
        await pilot.press("end")
        assert rows.highlighted == 99 and rows.scroll_offset.y > 0, "the last row is in view"
        await pilot.press("home")
        assert rows.highlighted == 0 and rows.scroll_offset.y == 0
        await pilot.press("pagedown")
        assert rows.highlighted > 5
        await pilot.press("pageup")
        assert rows.highlighted == 0
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.chosen == ["tool_0001"]


async def test_typing_filters_and_up_down_in_the_filter_move_through_the_list():
    app = ListApp(many_tools(100))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tool_list = app.query_one(ToolList)
        tool_list.focus_filter()
        await pilot.press(*"t0042")
        await pilot.pause()
        assert tool_list.shown[0].name == "tool_0042"
        assert str(tool_list.query_one("#tool-count").content).startswith(
            f"{len(tool_list.shown)}/100 tools · 2 endpoints"
        )
        await pilot.press("backspace", "backspace")
        await pilot.pause()
        assert tool_list.shown[0].name == "tool_0000" and len(tool_list.shown) == 100
        await pilot.press("down", "down")
        assert tool_list.rows.highlighted == 2
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen == ["tool_0002"]


async def test_a_click_highlights_and_chooses_the_row_under_the_mouse():
    app = ListApp(many_tools(100))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        rows = app.query_one(ToolRows)
        # Rows: tool_0000 (1 line), tool_0001 (2), tool_0002 (2), tool_0003 (1)...
        await pilot.click(ToolRows, offset=(2, 3))
        await pilot.pause()
        assert rows.highlighted == 2 and app.chosen == ["tool_0002"]
        await pilot.hover(ToolRows, offset=(2, 0))
        assert rows.hovered == 0


async def test_rows_show_the_endpoint_and_broken_tools_with_their_reason():
    app = ListApp(many_tools(10))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        tool_list = app.query_one(ToolList)
        assert tool_list.row_text(1) == "tool_0001  127.0.0.1:9001/mcp\nTool number 1"
        assert tool_list.row_text(0) == "tool_0000  127.0.0.1:9000/mcp"
        assert tool_list.row_text(5) == (
            "tool_0005  127.0.0.1:9001/mcp  broken\nits schema was refused"
        )
        text = "\n".join(
            "".join(segment.text for segment in tool_list.rows.render_line(y)) for y in range(3)
        )
        assert "tool_0000" in text and "Tool number 1" in text


def test_ranking_narrowed_from_a_shorter_query_equals_ranking_afresh():
    tools = [
        Tool(name="list_issues", description="Lists the issues"),
        Tool(name="search_issues", description="Full-text search"),
        Tool(name="get_issue"),
        Tool(name="LIST_USERS", description="who can be assigned"),
        Tool(name="create_label", description="adds a label to several issues"),
    ]
    ranker = FuzzyRanker(tools)
    for query in ["i", "is", "iss", "issu", "issue", "l", "li", "lis", "list"]:
        narrowed = [(t.name, offsets) for t, offsets in ranker.rank(query)]
        afresh = [(t.name, offsets) for t, offsets in fuzzy_rank(query, tools)]
        assert narrowed == afresh, query
    assert [t.name for t, _ in ranker.rank("list")][:2] == ["list_issues", "LIST_USERS"]
    # A name match ranks above a description match; the description match has no offsets.
    ranked = fuzzy_rank("label", tools)
    assert [(t.name, o) for t, o in ranked] == [("create_label", [7, 8, 9, 10, 11])]
    assert [t.name for t, o in fuzzy_rank("sevrl", tools)] == ["create_label"]
    assert fuzzy_rank("sevrl", tools)[0][1] == []
    assert [t.name for t, _ in fuzzy_rank("", tools)] == [t.name for t in tools]


def test_scattered_letters_are_placed_at_the_leftmost_match_pulled_to_its_end():
    tools = [Tool(name="aabac"), Tool(name="c_r_e_a_t_e_user"), Tool(name="xlxixsxt_list")]
    ranker = FuzzyRanker(tools)
    assert ranker.offsets("ac", 0) == [3, 4]  # not [0, 4]: the "a" nearest the "c"
    assert ranker.offsets("cu", 1) == [0, 12]
    assert ranker.offsets("eu", 1) == [10, 12]
    assert ranker.offsets("list", 2) == [9, 10, 11, 12]  # the whole query where it occurs
    assert ranker.offsets("lst", 2) == [1, 5, 7]
    assert ranker.offsets("zz", 2) == []


def test_word_starts_are_counted_as_the_regex_word_runs_begin():
    for text in ["list_issues", "x²y éclair", "a-b.c d\u0301e", "__init__ ٣rd", "--"]:
        starts = {match.start() for match in re.finditer(r"\w+", text)}
        for offset in range(len(text)):
            assert word_hits(text, [offset]) == (offset in starts), (text, offset)
