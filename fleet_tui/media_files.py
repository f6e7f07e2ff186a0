"""Binary content (images, audio, binary resources) written to files named after a label, the
block's index and a hash of its bytes, with an extension from its MIME type.

The type comes from the server: it may say `text/html` or `application/x-sh` of anything. Only
passive types (PASSIVE_EXTENSIONS) choose their extension; the rest are saved as `.bin`, so a
saved file never becomes a page, a script or a program on a double click, and the server's type
is said beside the path (`saved_note`)."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from fleet_tui.envs.errors import EnvError
from fleet_tui.text import one_line

PASSIVE_EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/jpg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "audio/wav": ".wav",
    "audio/x-wav": ".wav",
    "audio/wave": ".wav",
    "audio/mpeg": ".mp3",
    "audio/mp3": ".mp3",
    "audio/ogg": ".ogg",
    "application/ogg": ".ogg",
    "application/pdf": ".pdf",
    "application/json": ".json",
    "text/plain": ".txt",
    "application/octet-stream": ".bin",
}
"""The only extensions a server's MIME type can choose: types no viewer runs or renders as
active content. Anything else is saved as `.bin`."""

UNLISTED_EXTENSION = ".bin"


def extension_for(mime_type: str | None) -> str:
    """The file extension for a server's MIME type (parameters such as `; charset=` ignored):
    from PASSIVE_EXTENSIONS, else `.bin`."""
    return PASSIVE_EXTENSIONS.get(_essence(mime_type), UNLISTED_EXTENSION)


def saved_note(path: Path, mime_type: str | None) -> str:
    """`path` as said to the user, with the server's type when it did not choose the extension
    (`x.bin (the server said text/html)`)."""
    if not mime_type or _essence(mime_type) in PASSIVE_EXTENSIONS:
        return str(path)
    return f"{path} (the server said {one_line(mime_type, 80)})"


def _essence(mime_type: str | None) -> str:
    """`text/html` of `Text/HTML; charset=utf-8`."""
    return (mime_type or "").split(";", 1)[0].strip().lower()


class BlockFiles:
    """Writes binary blocks to files named after a label (the tool), block index and hash."""

    def __init__(self, folder: str | None, label: str) -> None:
        self._folder = Path(folder) if folder else None
        self._label = "".join(c if c.isalnum() or c in "-_" else "_" for c in label)[:80]

    def write(self, index: int, data: bytes, mime_type: str | None) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="fleet-tui-"))
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            digest = hashlib.sha256(data).hexdigest()[:12]
            path = self._folder / f"{self._label}-{index}-{digest}{extension_for(mime_type)}"
            path.write_bytes(data)
        except OSError as error:
            raise EnvError(f"cannot write {self._folder}: {error.strerror}") from None
        return path
