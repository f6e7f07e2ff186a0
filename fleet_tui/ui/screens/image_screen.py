"""A full-screen view of one image."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Footer

from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.image_view import ImageView


class ImageScreen(ModalScreen[tuple[int, int] | None]):
    """The image as large as the terminal allows; `s` saves it, esc closes.

    With `clickable`, a click closes the view and returns the image pixel (x, y) it hit.
    """

    HELP_AREA = "image"
    BINDINGS = bindings_for("image")
    DEFAULT_CSS = "ImageScreen { background: $background; }"

    def __init__(self, source: ImageView, *, clickable: bool = False) -> None:
        """Shows what `source` shows (already decoded: it is not decoded again)."""
        super().__init__()
        self.source = source
        self.clickable = clickable

    def compose(self) -> ComposeResult:
        source = self.source
        yield ImageView(source.data, source.mime_type, prepared=source.prepared, id="full-image")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)

    def on_image_view_clicked(self, event: ImageView.Clicked) -> None:
        event.stop()
        if self.clickable:
            self.dismiss((event.x, event.y))

    def action_save_image(self) -> None:
        self.query_one(ImageView).save()
