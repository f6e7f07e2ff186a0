"""A long tool list is kept out of the garbage collector's full collections, and holds nothing
past the next list."""

from __future__ import annotations

import gc
import weakref

from textual.app import App, ComposeResult

from fleet_tui.envs.base import Tool
from fleet_tui.ui.widgets.tool_list import ToolList


class Cycle:
    """Garbage only a full collection finds (it refers to itself)."""

    def __init__(self) -> None:
        self.me = self


class ListApp(App):
    def compose(self) -> ComposeResult:
        yield ToolList(id="tools")


def tools(count: int) -> list[Tool]:
    return [Tool(name=f"tool_{index}", description="A tool") for index in range(count)]


async def test_a_long_list_is_frozen_and_what_died_is_collected_when_the_next_comes():
    app = ListApp()
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause()
        tool_list = app.query_one(ToolList)
        dead = Cycle()
        dead_ref = weakref.ref(dead)
        kept = Cycle()
        kept_ref = weakref.ref(kept)
        del dead
        tool_list.set_tools(tools(1000))
        assert dead_ref() is None, "garbage is collected before freezing"
        assert gc.get_freeze_count() > 1000, "the tools are out of full collections"
        del kept
        gc.collect()
        assert kept_ref() is not None, "frozen: full collections do not walk it"
        tool_list.set_tools(tools(1000))
        assert kept_ref() is None, "what died since the last list is collected"
        gc.unfreeze()  # the rest of the test process as it was
