"""Which textual-image backend draws images, and preparing image bytes for drawing.

`auto` lets textual-image probe the terminal (Kitty graphics, Sixel, else half-cell blocks).
`FLEET_TUI_IMAGE_BACKEND` or `--image-backend` force one. The probe runs when
`textual_image.widget` is first imported, so `image_widget_class` must be called before the
app starts (`run_app` does).
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as PILImage

from fleet_tui import image_data
from fleet_tui.text import name_line
from fleet_tui.ui import terminal_probe

BACKENDS = ("auto", "kitty", "sixel", "halfcell", "unicode")
ENV_VAR = "FLEET_TUI_IMAGE_BACKEND"

_chosen: str | None = None


def choose_backend(name: str | None = None) -> str:
    """Fix the backend: `name`, else the environment variable, else auto. Returns it."""
    global _chosen
    name = (name or os.environ.get(ENV_VAR) or "auto").strip().lower()
    if name not in BACKENDS:
        raise ValueError(f"unknown image backend {name!r}: choose one of {', '.join(BACKENDS)}")
    _chosen = name
    return name


def backend() -> str:
    return _chosen or choose_backend()


def image_widget_class() -> type:
    """The textual-image widget class for the chosen backend (half-cell blocks, also when the
    probe picked them: fleet-tui's quicker `HalfcellPicture`)."""
    from textual_image import widget
    from textual_image.renderable import Image as probed
    from textual_image.renderable.halfcell import Image as halfcell

    from fleet_tui.ui.widgets.halfcell_picture import HalfcellPicture

    chosen = backend()
    if chosen == "halfcell" or (chosen == "auto" and probed is halfcell):
        return HalfcellPicture
    shown_by: type = {
        "auto": widget.Image,
        "kitty": widget.TGPImage,
        "sixel": widget.SixelImage,
        "unicode": widget.UnicodeImage,
    }[chosen]
    if shown_by is widget.SixelImage:
        terminal_probe.sixel_with_numpy()  # the probe loaded its encoder without numpy
    return shown_by


DISPLAY_MAX_SIDE = 2048
"""A decoded image is drawn from a copy at most this many pixels wide and high (drawing
copies the picture each time, on the UI thread)."""


@dataclass(frozen=True)
class Prepared:
    """An image ready to draw, or the message saying why it cannot be."""

    picture: PILImage.Image | None
    """The picture to draw, scaled down to DISPLAY_MAX_SIDE."""
    size: tuple[int, int] = (0, 0)
    """The image's own size in pixels (clicks map to these)."""
    error: str | None = None


REMEMBERED_DECODES = 1
"""The shown picture, no other, stays alive for a second view to share."""
_decodes: list[tuple[bytes, str, Future[Prepared]]] = []
"""The latest decode, by the very bytes object decoded."""
_decodes_lock = threading.Lock()


def prepare(data: bytes, mime_type: str, spill_folder: Path | None) -> Prepared:
    """Decode `data` for drawing (slow: run it in a thread). The same bytes object given again
    (a screenshot shown by the result view and the screenshot pane, even at the same time) is
    decoded once. An image past the pixel cap is not decoded: its bytes go to `spill_folder`
    (or a temporary folder) and the message names the file."""
    with _decodes_lock:
        earlier = next((f for d, m, f in _decodes if d is data and m == mime_type), None)
        if earlier is None:
            mine: Future[Prepared] = Future()
            _decodes.append((data, mime_type, mine))
            del _decodes[:-REMEMBERED_DECODES]
    if earlier is not None:
        return earlier.result()
    try:
        mine.set_result(_decoded(data, mime_type, spill_folder))
    except BaseException as error:
        mine.set_exception(error)
    return mine.result()


def _decoded(data: bytes, mime_type: str, spill_folder: Path | None) -> Prepared:
    try:
        picture = image_data.decode(data, mime_type)
    except image_data.ImageTooLarge as error:
        return Prepared(None, error.size, f"{error}: {_spill(data, mime_type, spill_folder)}")
    except image_data.ImageRefused as error:
        return Prepared(None, error=f"cannot show {_describe(data, mime_type)}: {error}")
    size = picture.size
    picture.thumbnail((DISPLAY_MAX_SIDE, DISPLAY_MAX_SIDE))
    return Prepared(picture, size)


def _describe(data: bytes, mime_type: str) -> str:
    from fleet_tui.ui.result_format import human_bytes  # loaded with the result's view

    return f"{name_line(mime_type, 40)} ({human_bytes(len(data))})"


def _spill(data: bytes, mime_type: str, folder: Path | None) -> str:
    from fleet_tui.session.recorder import store_content  # a session's files: loaded if recorded

    try:
        return f"saved to {store_content(folder or _temporary_folder(), data, mime_type)}"
    except OSError as error:
        return f"not saved ({error.strerror or error})"


@functools.cache
def _temporary_folder() -> Path:
    """One folder per process for images too large to show when no session is recorded."""
    return Path(tempfile.mkdtemp(prefix="fleet-tui-images-"))


def fit_cells(
    image_size: tuple[int, int], box: tuple[int, int], cell_px: tuple[int, int]
) -> tuple[int, int]:
    """The largest (columns, rows) inside `box` that shows the image with its aspect ratio.

    `cell_px` is the pixel size of one terminal cell (width, height).
    """
    width, height = image_size
    columns, rows = box
    if width <= 0 or height <= 0 or columns <= 0 or rows <= 0:
        return (0, 0)
    cell_w, cell_h = cell_px
    scale = min(columns * cell_w / width, rows * cell_h / height)
    return (
        max(1, min(columns, round(width * scale / cell_w))),
        max(1, min(rows, round(height * scale / cell_h))),
    )


def cell_to_pixel(
    cell: tuple[int, int], rendered: tuple[int, int], image_size: tuple[int, int]
) -> tuple[int, int]:
    """Map a terminal cell inside an image rendered over `rendered` (columns, rows) to the
    image pixel at the cell's centre."""
    column, row = cell
    columns, rows = rendered
    width, height = image_size
    x = int((column + 0.5) * width / columns)
    y = int((row + 0.5) * height / rows)
    return (min(max(x, 0), width - 1), min(max(y, 0), height - 1))


def cell_pixel_size() -> tuple[int, int]:
    """The terminal's cell size in pixels as textual-image measured it (10x20 when unknown)."""
    from textual_image._terminal import get_cell_size

    size = get_cell_size()
    return (size.width or 10, size.height or 20)


def save_png(data: bytes, mime_type: str, folder: Path) -> Path:
    """Decode `data` at full size and write it as `fleet-tui-<hash>.png` in `folder` (slow:
    run it in a thread). Raises ImageRefused or OSError."""
    picture = image_data.decode(data, mime_type)
    digest = hashlib.sha256(picture.tobytes()).hexdigest()[:12]
    path = folder / f"fleet-tui-{digest}.png"
    picture.save(path, format="PNG")
    return path
