"""textual-image's half-cell image widget, drawn from rows made once per size.

textual-image's half-cell renderable copies and converts the whole picture, scales it and makes
a Rich style for every cell each time Textual renders it, and Textual then re-cuts those
segments into lines: about 40 ms for a 1280x800 screenshot in a 100x31 box, for each view that
shows it. Here the same scaling (RGB, Pillow's default filter, to the widget's cells and twice
its rows) and the same cells (an upper half block in the upper pixel's colour on the lower
pixel's) are made straight into Textual strips, with one style per colour pair and one
segment per run of equal cells, and kept until the picture or the widget's size changes.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
from typing import Self

from PIL import Image as PILImage
from rich.color import Color
from rich.color_triplet import ColorTriplet
from rich.segment import Segment
from rich.style import Style
from textual.css.scalar import Unit
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.strip import Strip
from textual_image.renderable.halfcell import Image as HalfcellRenderable
from textual_image.widget import HalfcellImage

UPPER_HALF = "▀"

Pixel = tuple[int, int, int]


class HalfcellPicture(HalfcellImage, Renderable=HalfcellRenderable):
    """Draws the same cells as `HalfcellImage`, from strips cached for the current size."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)
    """A picture scrolls nothing: its new size (the first time it is shown) is no reason to
    lay the screen out or paint it again (the layout paints it), as Textual does for a widget
    whose size changed in a layout."""

    def __init__(
        self, image: PILImage.Image | None = None, *, id: str | None = None, classes: str = ""
    ) -> None:
        self._rows: tuple[object, Size, Style, list[Strip]] | None = None
        """The rows drawn: of this picture (None: the one let go), at this size, on this style."""
        self._box_kept = False
        """Set while the picture changes in a box of fixed cells: a repaint is all it needs."""
        super().__init__(image, id=id, classes=classes)

    @HalfcellImage.image.setter  # type: ignore[attr-defined]  # textual-image's is untyped
    def image(self, value: PILImage.Image | None) -> None:
        """textual-image lays the whole screen out for every new picture (its size may follow
        the picture's). In a box of so many columns and rows a new picture is only repainted,
        and a picture taken away (while the next one decodes) leaves its rows on screen, not
        a blank frame; the picture itself is let go."""
        if self._rows is not None and self._rows[0] is not value:
            self._rows = (None, *self._rows[1:]) if value is None else None
        self._box_kept = self._sized_in_cells()
        try:
            HalfcellImage.image.fset(self, value)  # type: ignore[attr-defined]
        finally:
            self._box_kept = False

    def _sized_in_cells(self) -> bool:
        width, height = self.styles.width, self.styles.height
        return all(side is not None and side.unit == Unit.CELLS for side in (width, height))

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if self._box_kept:
            if self.image is None and self._rows is not None:
                return self  # the rows on screen stay
            layout = False
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    async def prepare(self, picture: PILImage.Image, size: Size) -> None:
        """Make `picture`'s rows for `size` (cells) in a thread, before it is shown at that size."""
        base = self.visual_style.rich_style
        rows = await asyncio.to_thread(half_cell_rows, picture, size, base)
        self._rows = (picture, size, base, rows)

    def render_line(self, y: int) -> Strip:
        rows = self._strips()
        if 0 <= y < len(rows):
            return rows[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def _strips(self) -> list[Strip]:
        picture, size, base = self.image, self.size, self.visual_style.rich_style
        if self._rows is not None and self._rows[:3] == (picture, size, base):
            return self._rows[3]
        rows: list[Strip] = []
        if isinstance(picture, PILImage.Image) and size.area:
            rows = half_cell_rows(picture, size, base)
        self._rows = (picture, size, base, rows)
        return rows


def half_cell_rows(picture: PILImage.Image, size: Size, base: Style) -> list[Strip]:
    """`picture` scaled to `size` (in cells) as strips of upper half blocks on `base`; a run of
    cells of one colour pair is one segment."""
    width, height = size
    rgb = picture if picture.mode == "RGB" else picture.convert("RGB")
    data = rgb.resize((width, height * 2)).tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3], strict=True))
    styles: dict[tuple[Pixel, Pixel], Style] = {}
    rows = []
    for top in range(0, len(pixels), 2 * width):
        pairs = zip(pixels[top : top + width], pixels[top + width : top + 2 * width], strict=True)
        segments = []
        for pair, run in itertools.groupby(pairs):
            style = styles.get(pair)
            if style is None:
                style = styles[pair] = _cell_style(pair, base)
            segments.append(Segment(UPPER_HALF * len(list(run)), style))
        rows.append(Strip(segments, width))
    return rows


@functools.lru_cache(maxsize=8192)
def _cell_style(pair: tuple[Pixel, Pixel], base: Style) -> Style:
    """The style of a cell whose upper and lower pixels are `pair`, kept across pictures and
    sizes: a screenshot's next frame, and the other view showing it, use mostly the same."""
    upper, lower = (Color.from_triplet(ColorTriplet(*pixel)) for pixel in pair)
    style = Style.from_color(upper, lower)
    if base.without_color:  # a bold or dim base stays under the cell's colours
        return base + style
    return style  # the cell's colours replace all the base has
