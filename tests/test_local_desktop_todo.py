"""The desktop-todo GUI through its `computer` tool: every action, and what it changes."""

from __future__ import annotations

import base64
import contextlib
import io

import pytest
from mcp import ClientSession
from PIL import Image

from fleet_tui.local.envs import todo_gui as gui
from tests.fixtures.local_host import mcp_session


def row_point(index: int, x: int) -> list[int]:
    return [x, gui.LIST_TOP + index * (gui.ROW_HEIGHT + gui.ROW_GAP) + gui.ROW_HEIGHT // 2]


@contextlib.asynccontextmanager
async def desktop(fleet_client, **make_options):
    env = await fleet_client.make("desktop-todo", **make_options)
    try:
        async with mcp_session(f"{env.urls.root}api/v1/mcp") as session:
            yield Desktop(session)
    finally:
        await env.close()


class Desktop:
    def __init__(self, session: ClientSession) -> None:
        self.session = session

    async def do(self, action: str, **arguments):
        result = await self.session.call_tool("computer", {"action": action, **arguments})
        assert not result.is_error, result.content[0].text
        return result

    async def state(self) -> dict:
        return (await self.session.call_tool("app_state", {})).structured_content

    async def titles(self) -> list[tuple[str, bool]]:
        return [(todo["title"], todo["done"]) for todo in (await self.state())["todos"]]


def screenshot(result) -> Image.Image:
    block = next(block for block in result.content if block.type == "image")
    return Image.open(io.BytesIO(base64.b64decode(block.data))).convert("RGB")


async def test_double_click_edits_a_todo_in_place(fleet_client):
    async with desktop(fleet_client) as app:
        await app.do("double_click", coordinate=row_point(2, 300))
        assert (await app.state())["ui"]["edit_text"] == "Water plants"
        await app.do("key", text="BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace")
        await app.do("type", text="the plants")
        await app.do("key", text="Return")
        assert ("Water the plants", False) in await app.titles()


async def test_escape_cancels_an_edit_and_typing_needs_focus(fleet_client):
    async with desktop(fleet_client) as app:
        await app.do("double_click", coordinate=row_point(0, 300))
        await app.do("type", text=" now")
        await app.do("key", text="Escape")
        assert ("Send weekly report", False) in await app.titles()
        nowhere = await app.do("type", text="lost")
        assert "click a field first" in nowhere.content[0].text


async def test_filters_delete_and_clear_completed(fleet_client):
    async with desktop(fleet_client) as app:
        done_tab = gui.FILTERS["done"]
        await app.do("left_click", coordinate=[done_tab[0] + 10, done_tab[1] + 10])
        assert (await app.state())["ui"]["filter"] == "done"
        await app.do("left_click", coordinate=row_point(0, 74))  # un-tick the only done todo
        assert ("Book train tickets", False) in await app.titles()
        all_tab = gui.FILTERS["all"]
        await app.do("left_click", coordinate=[all_tab[0] + 10, all_tab[1] + 10])
        await app.do("left_click", coordinate=row_point(4, 74))
        await app.do("left_click", coordinate=row_point(3, 74))
        await app.do("left_click", coordinate=[gui.CLEAR_BUTTON[0] + 5, gui.CLEAR_BUTTON[1] + 5])
        assert [title for title, _ in await app.titles()] == [
            "Send weekly report",
            "Call the dentist",
            "Water plants",
        ]
        await app.do("left_click", coordinate=row_point(1, 1180))
        assert [title for title, _ in await app.titles()] == ["Send weekly report", "Water plants"]


async def test_scroll_reaches_rows_below_the_fold(fleet_client):
    async with desktop(fleet_client, data_key="todo-many") as app:
        assert len(await app.titles()) == 20
        last_visible = gui.VISIBLE_ROWS - 1
        for _ in range(2):  # the second scroll stops at the last row
            await app.do("scroll", coordinate=[640, 500], scroll_direction="down", scroll_amount=10)
        assert (await app.state())["ui"]["scroll"] == 20 - gui.VISIBLE_ROWS
        await app.do("left_click", coordinate=row_point(last_visible, 1180))
        assert "Errand 15" not in [title for title, _ in await app.titles()]
        await app.do("scroll", coordinate=[640, 500], scroll_direction="up", scroll_amount=10)
        assert (await app.state())["ui"]["scroll"] == 0


async def test_mouse_move_hovers_and_the_screen_shows_it(fleet_client):
    async with desktop(fleet_client) as app:
        away = screenshot(await app.do("mouse_move", coordinate=[640, 760]))
        over = screenshot(await app.do("mouse_move", coordinate=row_point(0, 600)))
        assert (await app.state())["ui"]["cursor_x"] == 600
        point = (900, row_point(0, 900)[1])  # inside the row, away from the cursor
        assert away.getpixel(point) == gui.WHITE and over.getpixel(point) == gui.HOVER


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"action": "key", "text": "F13"}, "unsupported key"),
        ({"action": "left_click", "coordinate": [5000, 10]}, "off the 1280x800 screen"),
        ({"action": "type"}, "type needs text"),
        ({"action": "scroll"}, "needs coordinate"),
        ({"action": "left_click", "coordinate": [1, 2, 3]}, "coordinate"),
    ],
)
async def test_bad_actions_are_tool_errors(fleet_client, arguments, message):
    async with desktop(fleet_client) as app:
        result = await app.session.call_tool("computer", arguments)
        assert result.is_error and message in result.content[0].text
        assert len(await app.titles()) == 5
