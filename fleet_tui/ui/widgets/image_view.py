"""An image fitted to its box with the aspect ratio kept, or a message when it cannot be decoded."""

from __future__ import annotations

from pathlib import Path

from PIL import Image as PILImage
from textual import events
from textual.app import ComposeResult
from textual.containers import Center
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from fleet_tui.ui import images
from fleet_tui.ui.safe_text import literal


class ImageView(Widget):
    """Shows one image (bytes) as large as its box allows; clicks report image pixel coordinates."""

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

    def __init__(self, data: bytes | None = None, *, id: str | None = None, classes: str = ""):
        super().__init__(id=id, classes=classes)
        self.data: bytes | None = None
        self.picture: PILImage.Image | None = None
        self.error: str | None = None
        self._pending = data

    def compose(self) -> ComposeResult:
        with Center():
            yield images.image_widget_class()(id="picture")
        yield Static("", classes="image-error", markup=False)

    def on_mount(self) -> None:
        self.show(self._pending)

    def show(self, data: bytes | None) -> None:
        """Display `data` (PNG, JPEG, ...), or a message saying why it cannot be shown."""
        self.data = data
        self.picture, self.error = None, None
        if data is not None:
            try:
                self.picture = images.decode(data)
            except ValueError as error:
                self.error = str(error)
        widget = self.query_one("#picture")
        widget.image = self.picture
        message = self.query_one(".image-error", Static)
        message.update(literal(self.error or ""))
        message.display = self.error is not None
        self.query_one(Center).display = self.picture is not None
        self._fit()

    @property
    def rendered_cells(self) -> tuple[int, int]:
        """The (columns, rows) the picture occupies on screen."""
        size = self.query_one("#picture").size
        return (size.width, size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        if self.picture is None or not self.size.area:
            return
        columns, rows = images.fit_cells(
            self.picture.size, (self.size.width, self.size.height), images.cell_pixel_size()
        )
        widget = self.query_one("#picture")
        widget.styles.width = columns
        widget.styles.height = rows

    def on_click(self, event: events.Click) -> None:
        widget = self.query_one("#picture")
        if self.picture is None or not widget.region.contains(event.screen_x, event.screen_y):
            return
        column = event.screen_x - widget.region.x
        row = event.screen_y - widget.region.y
        x, y = images.cell_to_pixel((column, row), self.rendered_cells, self.picture.size)
        self.post_message(self.Clicked(self, x, y))

    def save_png(self, folder: Path | None = None) -> Path:
        """Write the image as PNG and return the path (raises ValueError without an image)."""
        if self.picture is None or self.data is None:
            raise ValueError("no image to save")
        return images.save_png(self.picture, folder or Path.cwd())
