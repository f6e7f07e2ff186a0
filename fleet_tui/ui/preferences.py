"""What the app remembers between runs: the sidebar's width the person chose (one for the
usual layout, one beside a computer-use screenshot), kept as JSON in fleet-tui's state folder.

A file that cannot be read or holds something else is ignored (the defaults apply); a write
that fails loses only the preference, never the session.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from fleet_tui.private_files import make_private_dir, state_dir, write_private


def preferences_path() -> Path:
    """`$XDG_STATE_HOME/fleet-tui/preferences.json` (or ~/.local/state/fleet-tui/...)."""
    return state_dir() / "preferences.json"


class Preferences:
    """The remembered sidebar widths; kept in `path` (None: for this run only)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._values: dict[str, Any] = _read(path) if path is not None else {}

    def sidebar_width(self, computer: bool) -> int | None:
        """The width chosen for this layout, or None for the default (scaled to the terminal)."""
        value = self._values.get(_width_key(computer))
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def set_sidebar_width(self, computer: bool, width: int) -> None:
        self._values[_width_key(computer)] = width
        if self.path is None:
            return
        with contextlib.suppress(OSError):
            make_private_dir(self.path.parent)
            write_private(self.path, json.dumps(self._values, indent=1).encode())


def _width_key(computer: bool) -> str:
    return "computer_sidebar_width" if computer else "sidebar_width"


def _read(path: Path) -> dict[str, Any]:
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return values if isinstance(values, dict) else {}
