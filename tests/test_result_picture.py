"""The result view shows a result's first image in one picture widget, mounted for good: kept
across results (its size with it), hidden when a result has no image, placed where the image
is among the result's parts. The next screenshot, in that widget and the screenshot pane,
takes the box of the one before: the screen is not laid out again for it, the one before
stays drawn while it decodes, and both views draw it in the same frame."""

from __future__ import annotations

import time

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widget import Widget

from fleet_tui.envs.base import ImageBlock, TextBlock, ToolResult
from fleet_tui.local.envs import todo_gui
from fleet_tui.ui.result_format import plan_result
from fleet_tui.ui.widgets import halfcell_picture, image_view
from fleet_tui.ui.widgets.halfcell_picture import HalfcellPicture
from fleet_tui.ui.widgets.image_view import ImageView, PictureBox
from fleet_tui.ui.widgets.result_view import ResultView
from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
from tests.app_driver import SIZE, wait_for


class ResultHost(App):
    CSS = "ResultView, ScreenshotPane { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield ResultView()
        yield ScreenshotPane()


def screenshot(index: int) -> bytes:
    todos = [todo_gui.Todo(i, f"Todo {i} of screen {index}", i % 2 == 0) for i in range(4)]
    return todo_gui.render(todos, todo_gui.Ui())


async def show(app: ResultHost, *blocks: TextBlock | ImageBlock) -> None:
    await app.query_one(ResultView).show(plan_result(ToolResult(blocks=list(blocks)), None, "t"))


def picture(app: ResultHost) -> ImageView:
    [view] = app.query("#rendered ImageView")
    return view


def shown(app: ResultHost) -> list[str]:
    """The Rendered tab's widgets shown, in order: an image as `image:<its bytes' length>`."""
    rendered = app.query_one("#rendered")
    return [
        f"image:{len(child.data or b'')}" if isinstance(child, ImageView) else str(child.content)
        for child in rendered.children
        if child.display
    ]


async def test_the_picture_widget_is_kept_across_results_and_hidden_without_an_image():
    app = ResultHost()
    async with app.run_test(size=SIZE) as pilot:
        first, second = screenshot(1), screenshot(2)
        await show(app, TextBlock(text="clicked"), ImageBlock(data=first))
        view = picture(app)
        await wait_for(pilot, lambda: view.picture is not None and view.size.area)
        box = view.size

        await show(app, TextBlock(text="no screen this time"))
        assert picture(app) is view and not view.display
        assert view.data is None and view.picture is None, "its picture is let go"
        assert shown(app) == ["no screen this time"]

        await show(app, TextBlock(text="typed"), ImageBlock(data=second))
        assert picture(app) is view and view.display and view.data is second
        await wait_for(pilot, lambda: view.picture is not None)
        assert shown(app) == ["typed", f"image:{len(second)}"]

        await show(app, TextBlock(text="scrolled"), ImageBlock(data=first))
        assert view.size == box, "sized before the next screenshot is decoded"
        await wait_for(pilot, lambda: view.picture is not None)
        assert view.data is first and view.rendered_cells != (0, 0)


async def test_the_picture_sits_where_the_image_is_among_the_parts():
    app = ResultHost()
    async with app.run_test(size=SIZE) as pilot:
        png = screenshot(1)
        image = f"image:{len(png)}"
        await show(app, ImageBlock(data=png), TextBlock(text="after"))
        await pilot.pause()
        assert shown(app) == [image, "after"]
        await show(app, TextBlock(text="before"), ImageBlock(data=png))
        await pilot.pause()
        assert shown(app) == ["before", image]
        await show(app, TextBlock(text="before"), ImageBlock(data=png), TextBlock(text="after"))
        await pilot.pause()
        assert shown(app) == ["before", image, "after"]
        await show(app, ImageBlock(data=png), TextBlock(text="one"), TextBlock(text="two"))
        await pilot.pause()
        assert shown(app) == [image, "one", "two"]
        await show(app, TextBlock(text="a"), TextBlock(text="b"), ImageBlock(data=png))
        await pilot.pause()
        assert shown(app) == ["a", "b", image]


def both_views(app: ResultHost) -> list[ImageView]:
    return [picture(app), app.query_one(ScreenshotPane).image]


async def show_screenshot(pilot, png: bytes) -> None:
    """Show `png` in the result view and the screenshot pane, as the app does after an action,
    and wait until both have drawn it."""
    app = pilot.app
    await show(app, ImageBlock(data=png))
    app.query_one(ScreenshotPane).show(png, "image/png")
    await wait_for(pilot, lambda: all(v.data is png and v.picture for v in both_views(app)))
    await pilot.pause()


async def test_the_next_screenshot_is_drawn_in_both_views_without_a_layout():
    app = ResultHost()
    async with app.run_test(size=SIZE) as pilot:
        views = both_views(app)
        await show_screenshot(pilot, screenshot(1))
        boxes = [v.rendered_cells for v in views]
        layouts: list[object] = []
        app.screen.screen_layout_refresh_signal.subscribe(app.screen, layouts.append)
        await show_screenshot(pilot, screenshot(2))
        assert [v.rendered_cells for v in views] == boxes
        assert layouts == [], "blanked and drawn again in the same box: repaints only"


async def test_no_frame_shows_a_blank_picture_or_one_view_without_the_other(monkeypatch):
    """The pane's scaling is made slow (as on a loaded machine): the result view's picture,
    ready first, waits for it; meanwhile both views show the screenshot before."""
    monkeypatch.setattr(image_view, "SCALING_PAINTS_HELD_S", 60.0)
    app = ResultHost()
    async with app.run_test(size=SIZE) as pilot:
        views = both_views(app)
        await show_screenshot(pilot, screenshot(1))
        pane_width = views[1].rendered_cells[0]
        rows = halfcell_picture.half_cell_rows

        def slow_for_the_pane(picture, size, base):
            if size.width == pane_width:
                time.sleep(0.3)
            return rows(picture, size, base)

        monkeypatch.setattr(halfcell_picture, "half_cell_rows", slow_for_the_pane)
        frames: list[tuple[bool, ...]] = []  # per frame: which views showed the new screenshot
        blanks: list[int] = []
        display = app._display
        png = screenshot(2)

        def noted(screen, update) -> None:
            display(screen, update)
            if update is not None:
                frames.append(tuple(v.data is png and v.picture is not None for v in views))
                drawn = [v.query_one("#picture").render_line(0).text for v in views]
                blanks.extend(i for i, line in enumerate(drawn) if "▀" not in line)

        app._display = noted  # type: ignore[method-assign]
        await show_screenshot(pilot, png)
        assert frames and frames[-1] == (True, True)
        assert set(frames) <= {(False, False), (True, True)}, frames
        assert blanks == [], "a view painted blank while the next screenshot decoded"


async def test_the_first_screenshot_asks_for_no_second_layout(monkeypatch):
    """Shown for the first time, the pictures get their boxes in a layout; a picture or its
    row whose size that layout changed does not ask for another (Textual's way for widgets
    whose size changed), which would cost the screen a second layout and frame."""
    monkeypatch.setattr(image_view, "SCALING_PAINTS_HELD_S", 60.0)
    laying_out = False
    asked: list[str] = []  # layout requests the pictures and rows made during a layout
    refresh, refresh_layout = Widget.refresh, Screen._refresh_layout

    def noted_refresh(self, *regions, repaint=True, layout=False, recompose=False):
        if layout and laying_out and isinstance(self, HalfcellPicture | PictureBox):
            asked.append(type(self).__name__)
        return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    def noted_layout(self, size=None, scroll=False):
        nonlocal laying_out
        laying_out = True
        try:
            return refresh_layout(self, size, scroll)
        finally:
            laying_out = False

    monkeypatch.setattr(Widget, "refresh", noted_refresh)
    monkeypatch.setattr(Screen, "_refresh_layout", noted_layout)
    app = ResultHost()
    async with app.run_test(size=SIZE) as pilot:
        views = both_views(app)
        await show_screenshot(pilot, screenshot(1))
        await pilot.pause(0.2)
        assert all(v.rendered_cells != (0, 0) for v in views)
        assert asked == [], asked


async def test_a_result_without_an_image_leaves_no_picture_of_the_one_before(monkeypatch):
    """The screenshot before was still decoding when a text result came: its picture does not
    come back into the hidden view (where `o` would open it and `s` would say nothing to
    save)."""
    prepare = image_view.images.prepare

    def slow_prepare(*args):
        time.sleep(0.3)
        return prepare(*args)

    monkeypatch.setattr(image_view.images, "prepare", slow_prepare)
    app = ResultHost()
    async with app.run_test(size=SIZE) as pilot:
        await show(app, ImageBlock(data=screenshot(1)))
        await show(app, TextBlock(text="typed"))
        await wait_for(
            pilot,
            lambda: (
                not any(
                    w.group == ImageView.DECODE_GROUP and not w.is_finished for w in app.workers
                )
            ),
        )
        await pilot.pause()
        assert picture(app).picture is None and not picture(app).display
        assert app.query_one(ResultView).current_image() is None
