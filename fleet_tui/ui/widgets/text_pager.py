"""A read-only view of any amount of plain text that paints only the visible lines.

Splitting and measuring happen before the text reaches the widget (`PagerText.build`, which
workers run off the message loop), so a megabyte of text paints at once and scrolls smoothly.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.strip import Strip

from fleet_tui.text import clean
from fleet_tui.ui.widgets.in_place import SizedByContainer


@dataclass(frozen=True)
class PagerText:
    """Text split into display lines, with its widest line measured."""

    lines: list[str]
    width: int

    @classmethod
    def build(cls, text: str) -> PagerText:
        lines = clean(text).expandtabs(4).split("\n")
        width = max((cell_len(line) if not line.isascii() else len(line)) for line in lines)
        return cls(lines, width)


class TextPager(SizedByContainer, can_focus=True):
    """Plain text, scrollable both ways; only what is on screen is rendered."""

    DEFAULT_CSS = """
    TextPager { height: 1fr; background: $surface; }
    """

    def __init__(self, text: PagerText | None = None, *, id: str | None = None, classes: str = ""):
        super().__init__(id=id, classes=classes)
        self._text = text or PagerText([""], 0)
        self.virtual_size = Size(self._text.width, len(self._text.lines))

    @property
    def text(self) -> str:
        return "\n".join(self._text.lines)

    def set_text(self, text: PagerText) -> None:
        self._text = text
        self.virtual_size = Size(text.width, len(text.lines))
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        style = self.rich_style
        if index >= len(self._text.lines):
            return Strip.blank(width, style)
        line = self._text.lines[index]
        if line.isascii():  # a cell per character: cut the visible part before measuring
            shown = line[scroll_x : scroll_x + width]
            strip = Strip([Segment(shown, style)], len(shown))
            return strip.extend_cell_length(width, Style.null() + style)
        strip = Strip([Segment(line, style)], cell_len(line))
        return strip.crop_extend(scroll_x, scroll_x + width, Style.null() + style)
