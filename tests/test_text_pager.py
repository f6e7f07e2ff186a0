"""The pager draws the visible part of a line, however long the line, scrolled either way."""

from __future__ import annotations

from textual.app import App, ComposeResult

from fleet_tui.ui.widgets.text_pager import PagerText, TextPager

LONG = "".join(f"{index:07d} " for index in range(200_000))  # 1.6 MB on one line
WIDE = "日本語のテキスト" * 20


class PagerApp(App):
    def compose(self) -> ComposeResult:
        yield TextPager(PagerText.build(f"{LONG}\n{WIDE}\nshort"))


def shown(pager: TextPager, y: int) -> str:
    return "".join(segment.text for segment in pager.render_line(y))


async def test_a_long_line_is_drawn_from_where_it_is_scrolled_to():
    app = PagerApp()
    async with app.run_test(size=(40, 10)) as pilot:
        pager = app.query_one(TextPager)
        width = pager.scrollable_content_region.width
        assert shown(pager, 0) == LONG[:width]
        assert shown(pager, 2) == "short".ljust(width)
        pager.scroll_to(x=1_000_000, animate=False, immediate=True)
        await pilot.pause()
        assert shown(pager, 0) == LONG[1_000_000 : 1_000_000 + width]
        assert shown(pager, 2) == " " * width, "a short line is blank that far right"
        pager.scroll_to(x=4, animate=False, immediate=True)
        await pilot.pause()
        assert shown(pager, 1).startswith("語のテキスト")  # wide characters: two cells each
