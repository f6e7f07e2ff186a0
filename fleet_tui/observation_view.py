"""An observation (a JSON value, usually an object of fields) as display parts chosen by the
shape of each field, for the result view and the headless commands alike.

Env observations carry boards, prompts, screens and camera frames as JSON: printed as JSON they
are unreadable (a PNG as 100 KB of base64, a 210x160x3 screen as one number per line). Here:

- a string with newlines is text, not an escaped JSON string;
- a 2-D array of scalars is a grid with aligned columns;
- a base64 image (PNG, JPEG, WebP or GIF, told by its first bytes) or a `data:image/…` URL is an
  image, and so is a numeric array with a stated shape (HxW or HxWxC, nested, or flat beside a
  `<name>_shape` field);
- a long flat array of numbers is summarised (its length, min and max);
- a long or multi-line string seen before in the same observation is named, not shown again.

Scalars are `name: value` lines; nested objects, and short lists of objects (chat messages),
are walked with their paths as names (`messages[0].content`). The full value always stays in
the raw JSON. Pure: no UI.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

IMAGE_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
MIN_BASE64_IMAGE = 64
"""Shorter strings are never taken for base64 images (no image file is that small)."""
LONG_ARRAY = 64
"""Flat arrays of numbers longer than this are summarised."""
LONG_LINE = 2_000
"""A flat array whose JSON is longer than this is shown as JSON, not on one line."""
GRID_MAX_COLUMNS = 64
GRID_MAX_ROWS = 128
"""Larger 2-D arrays of numbers are drawn as images when they can be, else summarised."""
REPEAT_MIN = 40
"""Strings at least this long, or of several lines, are shown once; later copies name the
first."""
MAX_DEPTH = 3
"""Objects nested deeper are shown as JSON."""
MAX_OBJECTS = 20
"""A list of at most this many objects (chat messages, say) is shown object by object, so the
text in them reads as text and repeats are named; a longer one is shown as JSON."""


@dataclass
class ShownText:
    """Text to show as it is (multi-line text, a grid, a summary); `label` names the field."""

    label: str
    text: str
    grid: bool = False
    """Drawn without wrapping, so its columns stay aligned."""


@dataclass
class ShownImage:
    label: str
    data: bytes
    mime_type: str


@dataclass
class ShownJson:
    label: str
    value: Any


Shown = ShownText | ShownImage | ShownJson


def shown_lines(shown: list[Shown], image_line: Callable[[ShownImage], str]) -> list[str]:
    """The parts as lines of plain text: each field's name, then its text, its JSON, or what
    `image_line` says of its picture (where a terminal draws none)."""
    from fleet_tui.text import pretty_json

    lines = []
    for item in shown:
        if item.label:
            lines.append(f"{item.label}:")
        if isinstance(item, ShownImage):
            lines.append(image_line(item))
        elif isinstance(item, ShownJson):
            lines.append(pretty_json(item.value))
        else:
            lines.append(item.text)
    return lines


def observation_view(value: Any) -> list[Shown] | None:
    """The parts to show for `value`, or None when no field has a shape worth more than its
    JSON (then the caller shows the JSON as it always has)."""
    view = _View()
    if isinstance(value, Mapping):
        view.fields(value, "", 0)
    else:
        view.field("", value, {})
    view.end_lines()
    return view.parts if view.shaped else None


class _View:
    """Collects parts field by field; consecutive scalars become one block of lines."""

    def __init__(self) -> None:
        self.parts: list[Shown] = []
        self.shaped = False
        self._lines: list[str] = []
        self._seen: dict[str, str] = {}

    def fields(self, value: Mapping[str, Any], prefix: str, depth: int) -> None:
        for key, item in value.items():
            self.field(f"{prefix}{key}", item, value, depth)

    def field(self, label: str, value: Any, siblings: Mapping[str, Any], depth: int = 0) -> None:
        if isinstance(value, Mapping) and value and depth < MAX_DEPTH:
            self.fields(value, f"{label}.", depth + 1)
        elif isinstance(value, Mapping) and value:
            self.end_lines()
            self.parts.append(ShownJson(label, value))
        elif isinstance(value, str):
            self.string(label, value)
        elif isinstance(value, list):
            self.array(label, value, siblings, depth)
        else:
            self._lines.append(f"{label}: {json.dumps(value, ensure_ascii=False, default=str)}")

    def string(self, label: str, text: str) -> None:
        image = image_from_string(text)
        if image is not None:
            self.add(ShownImage(label, *image))
        elif ("\n" in text or len(text) >= REPEAT_MIN) and text in self._seen:
            self._lines.append(f"{label}: (the same text as {self._seen[text]})")
            self.shaped = True
        elif "\n" in text:
            self._seen.setdefault(text, label)
            self.add(ShownText(label, text))
        else:
            self._seen.setdefault(text, label)
            self._lines.append(f"{label}: {text}")

    def array(self, label: str, value: list[Any], siblings: Mapping[str, Any], depth: int) -> None:
        name = label.rsplit(".", 1)[-1]
        image = pixels_image(value, siblings.get(f"{name}_shape"))
        if image is not None:
            self.add(ShownImage(label, image, "image/png"))
        elif (rows := grid_rows(value)) is not None:
            self.add(ShownText(label, grid_text(rows), grid=True))
        elif len(value) > LONG_ARRAY and all(map(_is_number, value)):
            self.add(ShownText(label, summary(value)))
        elif all(not isinstance(item, Mapping | list) for item in value) and (
            len(line := json.dumps(value, ensure_ascii=False, default=str)) <= LONG_LINE
        ):
            self._lines.append(f"{label}: {line}")
        elif len(value) <= MAX_OBJECTS and depth < MAX_DEPTH and all(map(_is_object, value)):
            for index, item in enumerate(value):
                self.fields(item, f"{label}[{index}].", depth + 1)
        else:
            self.end_lines()
            self.parts.append(ShownJson(label, value))

    def add(self, part: Shown) -> None:
        self.end_lines()
        self.parts.append(part)
        self.shaped = True

    def end_lines(self) -> None:
        if self._lines:
            self.parts.append(ShownText("", "\n".join(self._lines)))
            self._lines = []


def image_from_string(text: str) -> tuple[bytes, str] | None:
    """(bytes, MIME type) of a `data:image/…;base64,` URL or a base64 string whose bytes start
    like a PNG, JPEG, WebP or GIF; else None."""
    if text.startswith("data:image/") and ";base64," in text[:100]:
        text = text.split(",", 1)[1]
    elif len(text) < MIN_BASE64_IMAGE or text[:1].isspace():
        return None
    try:
        mime_type = image_type(base64.b64decode(text[:24], validate=True))
        if mime_type is None:
            return None
        return base64.b64decode("".join(text.split()), validate=True), mime_type
    except (binascii.Error, ValueError):
        return None


def image_type(head: bytes) -> str | None:
    """The image MIME type that these first bytes announce, else None."""
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return next((mime for magic, mime in IMAGE_MAGIC if head.startswith(magic)), None)


def grid_rows(value: list[Any]) -> list[list[Any]] | None:
    """The rows of a small 2-D array of scalars (rows of equal length), else None."""
    if not value or len(value) > GRID_MAX_ROWS or not all(isinstance(row, list) for row in value):
        return None
    width = len(value[0])
    if not 0 < width <= GRID_MAX_COLUMNS or any(len(row) != width for row in value):
        return None
    if any(isinstance(cell, Mapping | list) for row in value for cell in row):
        return None
    return value


def grid_text(rows: list[list[Any]]) -> str:
    """Rows as aligned columns: strings to the left, numbers (and gaps, `.`) to the right."""
    cells = [[_cell(cell) for cell in row] for row in rows]
    widths = [max(len(row[column]) for row in cells) for column in range(len(cells[0]))]
    lines = [
        " ".join(
            text.ljust(width) if isinstance(cell, str) else text.rjust(width)
            for cell, text, width in zip(row, texts, widths, strict=True)
        ).rstrip()
        for row, texts in zip(rows, cells, strict=True)
    ]
    return "\n".join(lines)


def summary(numbers: list[Any]) -> str:
    """`[210 numbers, min 0, max 255]` for a long flat array (the full value is in the JSON)."""
    return f"[{len(numbers)} numbers, min {min(numbers):g}, max {max(numbers):g}]"


def pixels_image(value: list[Any], shape: Any = None) -> bytes | None:
    """A PNG of a numeric array shaped HxW or HxWxC (C 1, 3 or 4): nested, or flat with its
    `shape` given beside it. Values in [0, 1] are read as fractions. None when it is not one,
    or has more pixels than images are allowed (image_data.MAX_PIXELS)."""
    from fleet_tui import image_data

    if shape is not None:
        dims, flat = _stated_shape(shape), _flatten(value)
    else:
        dims = _nested_shape(value)
        if dims is not None and len(dims) == 2 and grid_rows(value) is not None:
            return None  # small enough to read as a grid
        flat = _flatten(value)
    if dims is None or len(dims) not in (2, 3) or flat is None:
        return None
    height, width, channels = (*dims, 1)[:3]
    if channels not in (1, 3, 4) or not 0 < height * width <= image_data.MAX_PIXELS:
        return None
    if len(flat) != height * width * channels:
        return None
    if not all(map(_is_number, flat)):
        return None
    scale = 255 if flat and max(flat) <= 1 and any(isinstance(n, float) for n in flat) else 1
    data = bytes(min(255, max(0, round(n * scale))) for n in flat)
    from PIL import Image

    mode = {1: "L", 3: "RGB", 4: "RGBA"}[channels]
    buffer = io.BytesIO()
    Image.frombytes(mode, (width, height), data).save(buffer, format="PNG")
    return buffer.getvalue()


def _stated_shape(shape: Any) -> tuple[int, ...] | None:
    if isinstance(shape, list) and all(isinstance(n, int) and n > 0 for n in shape):
        return tuple(shape)
    return None


def _nested_shape(value: Any) -> tuple[int, ...] | None:
    """The dimensions of a rectangular nested list, judged by its first elements."""
    dims: list[int] = []
    while isinstance(value, list) and value:
        dims.append(len(value))
        value = value[0]
    return tuple(dims) if dims else None


def _flatten(value: list[Any]) -> list[Any] | None:
    """The scalars of a nested list, in order; None when it holds objects."""
    flat: list[Any] = []
    stack = [iter(value)]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
        elif isinstance(item, list):
            stack.append(iter(item))
        elif isinstance(item, Mapping):
            return None
        else:
            flat.append(item)
    return flat


_END = object()


def _is_object(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _cell(value: Any) -> str:
    if value is None:
        return "."
    if isinstance(value, str):
        return value
    return json.dumps(value)
