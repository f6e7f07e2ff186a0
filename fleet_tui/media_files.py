"""Binary content (images, audio, binary resources) written to files named after a label, the
block's index and a hash of its bytes, with an extension from its MIME type."""

from __future__ import annotations

import hashlib
import mimetypes
import tempfile
from pathlib import Path

from fleet_tui.envs.base import EnvError

EXTENSIONS = {"audio/wav": ".wav", "audio/x-wav": ".wav", "audio/mpeg": ".mp3", "audio/ogg": ".ogg"}
"""Extensions Python's `mimetypes` does not know on every system."""


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
            extension = (
                EXTENSIONS.get(mime_type or "")
                or mimetypes.guess_extension(mime_type or "")
                or ".bin"
            )
            digest = hashlib.sha256(data).hexdigest()[:12]
            path = self._folder / f"{self._label}-{index}-{digest}{extension}"
            path.write_bytes(data)
        except OSError as error:
            raise EnvError(f"cannot write {self._folder}: {error.strerror}") from None
        return path
