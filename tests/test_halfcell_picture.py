"""HalfcellPicture draws exactly the cells textual-image's HalfcellImage draws, from rows it
makes once per size (or ahead of time in a thread)."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.geometry import Region, Size
from textual_image.widget import HalfcellImage

from fleet_tui import image_data
from fleet_tui.local.envs import todo_gui
from fleet_tui.ui.widgets.halfcell_picture import HalfcellPicture, half_cell_rows


def screenshot():
    todos = [todo_gui.Todo(i, f"Todo {i}", i % 3 == 0) for i in range(5)]
    return image_data.decode(todo_gui.render(todos, todo_gui.Ui()))


class Pictures(App):
    CSS = "HalfcellImage { width: 50; height: 16; }"

    def compose(self) -> ComposeResult:
        picture = screenshot()
        yield HalfcellImage(picture, id="textual-image")
        yield HalfcellPicture(picture, id="ours")


def cells(widget) -> list[list[tuple[str, object]]]:
    """What the widget draws, each cell with its style (as the screen gets it)."""
    lines = widget.render_lines(Region(0, 0, *widget.size))
    return [[(s.text, s.style) for s in Segment.simplify(list(line))] for line in lines]


async def test_halfcell_picture_draws_the_cells_textual_image_draws():
    app = Pictures()
    async with app.run_test(size=(60, 40)) as pilot:
        await pilot.pause()
        theirs, ours = app.query_one("#textual-image"), app.query_one("#ours")
        assert ours.size == theirs.size == Size(50, 16)
        assert cells(ours) == cells(theirs)
        assert len({style for line in cells(ours) for _, style in line}) > 10


async def test_rows_made_ahead_in_a_thread_are_the_ones_shown():
    app = Pictures()
    async with app.run_test(size=(60, 40)) as pilot:
        await pilot.pause()
        ours = app.query_one("#ours", HalfcellPicture)
        drawn = cells(ours)
        other = screenshot()
        await ours.prepare(other, ours.size)
        ours.image = other
        assert ours.render_line(0) is ours._rows[3][0]  # made ahead, not again
        assert cells(ours) == drawn  # the same picture, the same cells


def test_a_screenshot_drawn_again_reuses_its_cell_styles():
    """The next screenshot (mostly the same colours), or the other view showing it, makes
    no cell style it already made: the same style objects are drawn again."""
    picture, size, base = screenshot(), Size(50, 16), Style()
    first = half_cell_rows(picture, size, base)
    again = half_cell_rows(screenshot(), size, base)
    styles = {id(s.style) for row in first for s in row}
    assert [list(row) for row in again] == [list(row) for row in first]
    assert {id(s.style) for row in again for s in row} == styles
