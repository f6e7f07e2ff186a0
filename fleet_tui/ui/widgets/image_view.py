"""An image fitted to its box with the aspect ratio kept, or a message when it cannot be decoded."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PIL import Image as PILImage
from textual import events
from textual.app import ComposeResult
from textual.containers import Center
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Static

from fleet_tui.text import error_message
from fleet_tui.ui import images
from fleet_tui.ui.paints_held import paints_held
from fleet_tui.ui.safe_text import literal
from fleet_tui.ui.widgets.in_place import set_content

SCALING_PAINTS_HELD_S = 0.05
"""While a decoded image is scaled for its view, the screen is painted after at most this
long: the views showing one screenshot (the result view, the screenshot pane), whose decode
ends at once, draw it in one frame, and no frame takes the event loop meanwhile."""


class PictureBox(Center):
    """The picture's row, centred. It scrolls nothing: its new size (the first time a picture
    is shown) is no reason to lay the screen out or paint it again (the layout paints it), as
    Textual does for a widget whose size changed in a layout."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)


class ImageView(Widget):
    """Shows one image (bytes) as large as its box allows; clicks report image pixel coordinates.

    Decoding runs in a thread worker (group DECODE_GROUP); `Ready` is posted when it is done.
    """

    DECODE_GROUP = "image-decode"

    DEFAULT_CSS = """
    ImageView { height: 1fr; width: 1fr; }
    ImageView > Center { width: 1fr; height: auto; }
    ImageView .image-error { color: $error; padding: 1; }
    """

    class Clicked(Message):
        """The image was clicked at pixel (x, y)."""

        def __init__(self, view: ImageView, x: int, y: int) -> None:
            super().__init__()
            self.view = view
            self.x = x
            self.y = y

    class Ready(Message):
        """The image was decoded, or found not to be showable."""

        def __init__(self, view: ImageView) -> None:
            super().__init__()
            self.view = view

    def __init__(
        self,
        data: bytes | None = None,
        mime_type: str = "image/png",
        *,
        prepared: images.Prepared | None = None,
        id: str | None = None,
        classes: str = "",
    ):
        """`prepared`: `data` already decoded (by another view), so it is not decoded again."""
        super().__init__(id=id, classes=classes)
        self.data = data
        self.mime_type = mime_type
        self.prepared: images.Prepared | None = None
        self._given = prepared

    def compose(self) -> ComposeResult:
        with PictureBox():
            yield images.image_widget_class()(id="picture")
        yield Static("", classes="image-error", markup=False)

    def on_mount(self) -> None:
        if self._given is not None:
            self._draw(self._given)
        else:
            self.show(self.data, self.mime_type)
        self._given = None

    @property
    def picture(self) -> PILImage.Image | None:
        """The decoded picture (scaled down for drawing), None while decoding or on error."""
        return self.prepared.picture if self.prepared else None

    @property
    def error(self) -> str | None:
        return self.prepared.error if self.prepared else None

    @property
    def image_size(self) -> tuple[int, int]:
        """The image's own size in pixels ((0, 0) while unknown)."""
        return self.prepared.size if self.prepared else (0, 0)

    def show(self, data: bytes | None, mime_type: str = "image/png") -> None:
        """Display `data` (PNG, JPEG, ...), or a message saying why it cannot be shown. The
        picture shown before is let go at once (half-cell rows drawn from it stay on screen
        until the new one is drawn); the new one is decoded in a thread."""
        self.data, self.mime_type = data, mime_type
        self._draw(None, decoding=data is not None)
        if data is not None:
            self.run_worker(
                self._decode(data, mime_type),
                group=self.DECODE_GROUP,
                exclusive=True,
                exit_on_error=False,
            )

    def save(self) -> None:
        """Write the image as a PNG in the current folder (in a thread); a toast says where."""
        if self.picture is None or self.data is None:
            self.app.notify("Not saved: no image to save", severity="error", markup=False)
            return
        self.app.run_worker(self._save(self.data, self.mime_type), exit_on_error=False)

    async def _save(self, data: bytes, mime_type: str) -> None:
        try:
            path = await asyncio.to_thread(images.save_png, data, mime_type, Path.cwd())
        except (ValueError, OSError) as error:
            self.app.notify(f"Not saved: {error_message(error)}", severity="error", markup=False)
            return
        self.app.notify(f"Saved {path}", markup=False)

    async def _decode(self, data: bytes, mime_type: str) -> None:
        # textual-image probes the terminal when imported: image_widget_class decides when
        from fleet_tui.ui.widgets.halfcell_picture import HalfcellPicture

        folder = getattr(self.app, "image_folder", None)
        prepared = await asyncio.to_thread(images.prepare, data, mime_type, folder)
        if self._outdated(data):
            return
        with paints_held(self.app, SCALING_PAINTS_HELD_S):
            widget, cells = self.query_one("#picture"), self._cells(prepared.size)
            if isinstance(widget, HalfcellPicture) and prepared.picture is not None and cells:
                await widget.prepare(prepared.picture, Size(*cells))  # drawn off the UI thread
            if not self._outdated(data):
                self._draw(prepared)

    def _outdated(self, data: bytes) -> bool:
        """While `data` decoded, the view was given other data (or none: a result without an
        image), or its parts were removed."""
        return self.data is not data or not self.query("#picture")

    def _draw(self, prepared: images.Prepared | None, *, decoding: bool = False) -> None:
        """Show `prepared`; while the next picture is `decoding`, the box of the one before
        stays (blank), so neither the blank nor the new picture lays the screen out again."""
        self.prepared = prepared
        picture: Any = self.query_one("#picture")  # a textual-image widget, loaded on first use
        picture.image = self.picture
        message = self.query_one(".image-error", Static)
        set_content(message, literal(self.error or ""))
        message.display = self.error is not None
        center = self.query_one(Center)
        center.display = self.picture is not None or (decoding and center.display)
        self._fit()
        if prepared is not None:
            self.post_message(self.Ready(self))

    @property
    def rendered_cells(self) -> tuple[int, int]:
        """The (columns, rows) the picture occupies on screen."""
        size = self.query_one("#picture").size
        return (size.width, size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        cells = self._cells(self.image_size) if self.picture is not None else None
        if cells:
            widget = self.query_one("#picture")
            widget.styles.width, widget.styles.height = cells

    def _cells(self, image_size: tuple[int, int]) -> tuple[int, int] | None:
        """The (columns, rows) an image of `image_size` pixels takes in this view; None while
        the view has no size."""
        if not self.size.area:
            return None
        box = (self.size.width, self.size.height)
        return images.fit_cells(image_size, box, images.cell_pixel_size())

    def on_click(self, event: events.Click) -> None:
        widget = self.query_one("#picture")
        if self.picture is None or not widget.region.contains(event.screen_x, event.screen_y):
            return
        column = event.screen_x - widget.region.x
        row = event.screen_y - widget.region.y
        x, y = images.cell_to_pixel((column, row), self.rendered_cells, self.image_size)
        self.post_message(self.Clicked(self, x, y))
