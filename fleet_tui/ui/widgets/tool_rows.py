"""The tool list's rows, drawn only as they scroll into view (a virtual list).

Showing another set of rows costs their heights, not their rendering: a row is rendered when
it is first drawn, and kept until the rows, the width or the highlight change. The rows after
the first few may come in a provisional order, settled (by a callback) before any of them is
drawn or reached.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable
from itertools import accumulate

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from fleet_tui.ui.widgets.in_place import SizedByContainer

REMEMBERED_ROWS = 4000
"""Drawn rows kept for reuse, at most."""


class ToolRows(SizedByContainer, can_focus=True):
    """Rows of given heights, each drawn by `render_row(index)`; one can be highlighted."""

    COMPONENT_CLASSES = {"tool-rows--row", "tool-rows--highlighted", "tool-rows--hover"}
    # The keys of Textual's OptionList, which this list replaces.
    BINDINGS = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    highlighted: reactive[int | None] = reactive(None, always_update=True)
    hovered: reactive[int | None] = reactive(None)

    class Selected(Message):
        """A row was chosen (enter or a click)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(
        self,
        render_row: Callable[[int], Text],
        row_key: Callable[[int], Hashable],
        *,
        id: str | None = None,
    ) -> None:
        """`render_row(index)` draws a row; rows with equal `row_key(index)` look the same, so
        a row drawn once is reused wherever it appears again (say, after a backspace)."""
        super().__init__(id=id)
        self.render_row = render_row
        self.row_key = row_key
        self._starts: list[int] = [0]
        """The first line of each row, and the line after the last row."""
        self._settled = 0
        """How many rows, from the top, are in their final order."""
        self._settle: Callable[[], list[int]] | None = None
        self._strips: dict[tuple[Hashable, str], list[Strip]] = {}

    @property
    def row_count(self) -> int:
        return len(self._starts) - 1

    def set_rows(
        self,
        heights: list[int],
        settled: int | None = None,
        settle: Callable[[], list[int]] | None = None,
    ) -> None:
        """Show `len(heights)` rows of these heights (in lines), from the top, none highlighted.
        Rows from `settled` on are in a provisional order: before one of them is drawn or
        reached, `settle()` puts them in their final order and gives every row's height."""
        self._starts = [0, *accumulate(heights)]
        self._settled = len(heights) if settled is None else settled
        self._settle = settle
        if len(self._strips) > REMEMBERED_ROWS:
            self._strips.clear()
        self.hovered = None
        self.set_reactive(ToolRows.highlighted, None)
        self.virtual_size = Size(self.scrollable_content_region.width, self._starts[-1])
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def settle_rows(self, heights: list[int]) -> None:
        """The rows are in their final order, with these heights (the same rows as before)."""
        self._starts = [0, *accumulate(heights)]
        self._settled, self._settle = len(heights), None

    def _settle_through(self, index: int) -> None:
        """Settle the rows' order if row `index` is not settled yet."""
        if index >= self._settled and self._settle is not None:
            self.settle_rows(self._settle())

    def forget_drawn(self) -> None:
        """Draw every row anew (what the row keys stand for changed)."""
        self._strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        self._strips.clear()  # styles differ with focus, hover and the theme
        super().notify_style_update()

    def _on_focus(self, event: events.Focus) -> None:
        self._strips.clear()

    def _on_blur(self, event: events.Blur) -> None:
        self._strips.clear()

    def _on_resize(self, event: events.Resize) -> None:
        self._strips.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, self._starts[-1])
        self.scroll_to_highlight()

    def row_at_line(self, line: int) -> int | None:
        if not 0 <= line < self._starts[-1]:
            return None
        if line >= self._starts[self._settled]:
            self._settle_through(self._settled)
        return bisect_right(self._starts, line) - 1

    def render_line(self, y: int) -> Strip:
        line = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        index = self.row_at_line(line)
        if index is None:
            return Strip.blank(width, self.get_visual_style("tool-rows--row").rich_style)
        state = (
            "tool-rows--highlighted"
            if index == self.highlighted
            else "tool-rows--hover"
            if index == self.hovered
            else ""
        )
        strips = self._row_strips(index, state, width)
        return strips[line - self._starts[index]]

    def _row_strips(self, index: int, state: str, width: int) -> list[Strip]:
        """The row's lines, padded or cut to its height and width. Each line is drawn as it is:
        no wrapping to compute, which keeps a row cheap. They hold no index (a row drawn once is
        reused at other places): the mouse finds its row by its position, `row_under`."""
        key = (self.row_key(index), state)
        if key not in self._strips:
            classes = ("tool-rows--row", state) if state else ("tool-rows--row",)
            style = self.get_visual_style(*classes).rich_style
            height = self._starts[index + 1] - self._starts[index]
            lines = self.render_row(index).split("\n", allow_blank=True)[:height]
            strips = []
            for line in lines + [Text()] * (height - len(lines)):
                line.truncate(width, overflow="ellipsis")
                strip = Strip(line.render(self.app.console)).apply_style(style)
                strips.append(strip.extend_cell_length(width, style))
            self._strips[key] = strips
        return self._strips[key]

    def _redraw_row(self, index: int | None) -> None:
        """Draw row `index` again (its state changed)."""
        if index is None or index >= self.row_count:
            return
        self._settle_through(index)
        top = self._starts[index] - self.scroll_offset.y
        self.refresh(Region(0, top, self.size.width, self._starts[index + 1] - self._starts[index]))

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._redraw_row(old)
        self._redraw_row(new)
        self.scroll_to_highlight()

    def watch_hovered(self, old: int | None, new: int | None) -> None:
        self._redraw_row(old)
        self._redraw_row(new)

    def validate_highlighted(self, index: int | None) -> int | None:
        if index is None or not self.row_count:
            return None
        return max(0, min(index, self.row_count - 1))

    def scroll_to_highlight(self) -> None:
        index = self.highlighted
        if index is None or index >= self.row_count:
            return
        self._settle_through(index)
        top, bottom = self._starts[index], self._starts[index + 1]
        region = Region(0, top, self.scrollable_content_region.width, bottom - top)
        self.scroll_to_region(region, animate=False, force=True, immediate=True)

    def row_under(self, event: events.MouseEvent) -> int | None:
        """The row at the mouse's position now, if any."""
        offset = event.get_content_offset(self)
        return None if offset is None else self.row_at_line(self.scroll_offset.y + offset.y)

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self.row_under(event)

    def _on_leave(self, event: events.Leave) -> None:
        self.hovered = None

    async def _on_click(self, event: events.Click) -> None:
        index = self.row_under(event)
        if index is not None:
            self.highlighted = index
            self.action_select()

    def action_cursor_down(self) -> None:
        self.highlighted = 0 if self.highlighted is None else self.highlighted + 1

    def action_cursor_up(self) -> None:
        self.highlighted = 0 if self.highlighted is None else self.highlighted - 1

    def action_first(self) -> None:
        self.highlighted = 0

    def action_last(self) -> None:
        self.highlighted = self.row_count - 1

    def _move_page(self, direction: int) -> None:
        line = (
            self._starts[self.highlighted or 0] + direction * self.scrollable_content_region.height
        )
        self.highlighted = self.row_at_line(max(0, min(line, self._starts[-1] - 1)))

    def action_page_down(self) -> None:
        self._move_page(1)

    def action_page_up(self) -> None:
        self._move_page(-1)

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self.highlighted))
