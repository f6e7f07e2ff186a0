"""Images from an environment are data to check before decoding: the size is read from the
header and refused past a pixel cap, PNG chunks that libpng and browsers skip are skipped, and
an image that cannot be decoded says so in plain words.

Shared by the headless commands and the UI (no UI code here).
"""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image as PILImage
from PIL import ImageFile

MAX_PIXELS = 40_000_000
"""Images with more pixels are not decoded: a 12000x12000 PNG of 20 KB takes 576 MB decoded."""

PILImage.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow's own decompression-bomb limit, the same cap

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class ImageRefused(ValueError):
    """An image that is not decoded; the message says why in plain words."""


class ImageTooLarge(ImageRefused):
    """More than MAX_PIXELS pixels: nothing was decoded."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        super().__init__(f"image too large ({size[0]}x{size[1]})")


def decode(data: bytes, mime_type: str = "image/png") -> PILImage.Image:
    """The image fully decoded, in RGB or RGBA.

    Raises ImageTooLarge past MAX_PIXELS (checked in the header, before decoding anything),
    ImageRefused when the bytes are not an image Pillow reads.
    """
    image: PILImage.Image = open_header(data, mime_type)
    try:
        image.load()
    except (OSError, SyntaxError, ValueError, EOFError, struct.error) as error:
        raise ImageRefused(f"the {format_label(mime_type)} is damaged or cut short") from error
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA")
    return image


def open_header(data: bytes, mime_type: str = "image/png") -> ImageFile.ImageFile:
    """The image with only its header read; raises as `decode` does."""
    image = _identify(without_broken_optional_chunks(data))
    if image is None:
        raise ImageRefused(f"not a valid {format_label(mime_type)}")
    width, height = image.size
    if width * height > MAX_PIXELS:
        raise ImageTooLarge(image.size)
    return image


def format_label(mime_type: str) -> str:
    """The format Pillow names for `mime_type` (image/png -> PNG), else "image"."""
    labels = {mime: name for name, mime in PILImage.MIME.items()}
    return labels.get(mime_type.strip().lower(), "image")


def _identify(data: bytes) -> ImageFile.ImageFile | None:
    """Pillow's format detection and header parse, as `PIL.Image.open` does it but without its
    decompression-bomb check, which refuses an image without telling its size: the caller
    checks the size itself."""
    PILImage.init()
    prefix = data[:16]
    for format_id in PILImage.ID:
        factory, accept = PILImage.OPEN[format_id]
        accepted = accept is None or accept(prefix)
        if not accepted or isinstance(accepted, str):
            continue
        try:
            return factory(io.BytesIO(data), "")
        except (OSError, SyntaxError, ValueError, IndexError, TypeError, EOFError, struct.error):
            continue
    return None


def without_broken_optional_chunks(data: bytes) -> bytes:
    """A PNG without its ancillary chunks (lower-case first letter, such as iCCP) whose
    checksum is wrong, as libpng and browsers read it; other bytes come back unchanged."""
    if not data.startswith(PNG_SIGNATURE):
        return data
    view = memoryview(data)
    broken: list[tuple[int, int]] = []
    position = len(PNG_SIGNATURE)
    while position + 12 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, position)
        end = position + 12 + length
        if end > len(data):
            break
        (checksum,) = struct.unpack_from(">I", data, end - 4)
        if kind[0] & 0x20 and zlib.crc32(view[position + 4 : end - 4]) != checksum:
            broken.append((position, end))
        position = end
    if not broken:
        return data
    kept, start = [], 0
    for begin, end in broken:
        kept.append(view[start:begin])
        start = end
    kept.append(view[start:])
    return b"".join(kept)
