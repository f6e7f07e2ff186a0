"""Which textual-image backend draws images, and decoding image bytes safely.

`auto` lets textual-image probe the terminal (Kitty graphics, Sixel, else half-cell blocks).
`FLEET_TUI_IMAGE_BACKEND` or `--image-backend` force one. The probe runs when
`textual_image.widget` is first imported, so `image_widget_class` must be called before the
app starts (`run_app` does).
"""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

from PIL import Image as PILImage

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
    """The textual-image widget class for the chosen backend."""
    from textual_image import widget

    return {
        "auto": widget.Image,
        "kitty": widget.TGPImage,
        "sixel": widget.SixelImage,
        "halfcell": widget.HalfcellImage,
        "unicode": widget.UnicodeImage,
    }[backend()]


def decode(data: bytes) -> PILImage.Image:
    """Decode image bytes fully (so a truncated image fails here, not while drawing).

    Raises ValueError with a short reason.
    """
    try:
        image = PILImage.open(io.BytesIO(data))
        image.load()
    except Exception as error:
        raise ValueError(f"cannot decode image ({len(data)} bytes): {error}") from error
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA")
    return image


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


def save_png(picture: PILImage.Image, folder: Path) -> Path:
    """Write `picture` as `fleet-tui-<hash>.png` in `folder` and return the path."""
    digest = hashlib.sha256(picture.tobytes()).hexdigest()[:12]
    path = folder / f"fleet-tui-{digest}.png"
    picture.save(path, format="PNG")
    return path
