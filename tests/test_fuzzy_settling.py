"""The tool filter's ranking put in order a part at a time: the tools that cannot be passed are
settled at once, letters scattered over descriptions are scored later, and the result is the
ranking of scoring every tool."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult

from fleet_tui.envs.base import Tool
from fleet_tui.ui import fuzzy
from fleet_tui.ui.fuzzy import FuzzyRanker, placement, score, subsequence
from fleet_tui.ui.widgets.tool_list import ToolList

LETTERS = "ab_ -.Aé"


def every_tool_scored(query: str, tools: list[Tool]) -> list[int]:
    """The ranking by its definition: each name scored, else each description at half."""
    query = query.lower()
    pattern = subsequence(query)
    ranked = []
    for index, tool in enumerate(tools):
        for text, share in ((tool.name.lower(), 1.0), (tool.description[:200].lower(), 0.5)):
            offsets = placement(query, pattern, text)
            if offsets is not None:
                ranked.append((-share * score(query, text, offsets), index))
                break
    return [index for _, index in sorted(ranked)]


tools_strategy = st.lists(
    st.builds(
        Tool,
        name=st.text(LETTERS, min_size=1, max_size=12),
        description=st.text(LETTERS, max_size=40),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(tools=tools_strategy, query=st.text(LETTERS, min_size=1, max_size=5))
def test_what_is_settled_first_and_the_whole_ranking_are_those_of_scoring_every_tool(
    tools: list[Tool], query: str
):
    expected = every_tool_scored(query, tools)
    ranker = FuzzyRanker(tools)
    for end in range(1, len(query) + 1):  # typed a letter at a time: each narrows the last
        ranking = ranker.ranking(query[:end])
        settled = list(ranking.order[: ranking.settled])
        assert settled == every_tool_scored(query[:end], tools)[: ranking.settled]
        assert sorted(ranking.matched) == sorted(every_tool_scored(query[:end], tools))
    assert list(ranker.order(query)) == expected


def bulk_tools(count: int) -> list[Tool]:
    """Names holding "create" whole for a ninth of the tools, descriptions holding its letters
    scattered for all of them."""
    verbs = ["create", "list", "get", "update", "delete", "search", "sync", "archive", "export"]
    return [
        Tool(
            name=f"{verbs[index % 9]}_item_{index}",
            description=f"Each tool reads a thing: {index}",
        )
        for index in range(count)
    ]


def test_a_query_settles_the_first_rows_without_scoring_scattered_descriptions(monkeypatch):
    tools = bulk_tools(900)
    scattered_texts: list[str] = []
    scattered = fuzzy.scattered

    def counted(query, pattern, text):
        scattered_texts.append(text)
        return scattered(query, pattern, text)

    monkeypatch.setattr(fuzzy, "scattered", counted)
    ranker = FuzzyRanker(tools)
    ranking = ranker.ranking("creat", first=40)
    assert len(ranking.matched) == 900 and ranking.settled == 100  # every create_item_N
    assert not any(text.startswith("each tool") for text in scattered_texts)
    assert not ranking.complete
    assert list(ranker.order("creat")) == every_tool_scored("creat", tools)
    assert ranking.complete and any(text.startswith("each tool") for text in scattered_texts)


class ListApp(App):
    def __init__(self, tools: list[Tool]) -> None:
        super().__init__()
        self.tools = tools

    def compose(self) -> ComposeResult:
        yield ToolList(id="tools")

    def on_mount(self) -> None:
        self.query_one(ToolList).set_tools(self.tools)


async def test_the_list_settles_in_the_background_and_before_rows_further_down_are_shown():
    tools = bulk_tools(900)  # under the length the list freezes: the test process stays as it is
    app = ListApp(tools)
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause()
        tool_list = app.query_one(ToolList)
        tool_list.focus_filter()
        await pilot.press(*"creat")
        expected = [tools[index].name for index in every_tool_scored("creat", tools)]
        rows = tool_list.rows
        rows.focus()
        await pilot.press("end")  # straight to the last row, settled or not
        await pilot.pause()
        assert rows.highlighted == 899
        assert tool_list.row_text(899).splitlines()[0] == expected[-1]
        await pilot.press("backspace")  # the filter no longer has focus: nothing changes
        await app.workers.wait_for_complete()
        assert [tool.name for tool in tool_list.shown] == expected
        await pilot.press("home")
        assert tool_list.row_text(0).splitlines()[0] == expected[0]
