"""textual-image's terminal probe (Sixel? Kitty graphics? the cell size), run in a thread while
the app's modules load: the probe mostly waits for the terminal's answers (0.1 s for each one
the terminal does not give), which the imports need not wait for. Textual reads the terminal
itself once it runs, so the probe must have ended by then (`wait`)."""

from __future__ import annotations

import importlib
import threading

SHARED_MODULES = (
    "array", "base64", "fcntl", "logging", "random", "select", "termios", "tty",
    "rich.color", "rich.color_triplet", "rich.console", "rich.control", "rich.measure",
    "rich.segment", "rich.style",
    "PIL.Image",
)  # fmt: skip
"""What the probe's own modules import, loaded before the thread starts: the two threads never
import the same module at once."""

_probe: threading.Thread | None = None


def start() -> None:
    """Start probing the terminal (once)."""
    global _probe
    if _probe is None:
        for name in SHARED_MODULES:
            importlib.import_module(name)
        _probe = threading.Thread(target=_probe_terminal, name="terminal-probe", daemon=True)
        _probe.start()


def wait() -> None:
    """Wait until the probe has read the terminal's answers (at once if it never started)."""
    if _probe is not None:
        _probe.join()


def _probe_terminal() -> None:
    try:
        import textual_image.renderable  # noqa: F401  (its import asks the terminal)
        from textual_image._terminal import get_cell_size

        get_cell_size()
    except Exception:
        pass  # the import in the app's thread (`images.image_widget_class`) raises it again
