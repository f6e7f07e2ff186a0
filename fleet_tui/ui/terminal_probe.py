"""textual-image's terminal probe (Sixel? Kitty graphics? the cell size), run in a thread while
the app's options are checked and its modules load: the probe mostly waits for the terminal's
answers (0.1 s for each one the terminal does not give), which the imports need not wait for.
Textual reads the terminal itself once it runs, so the probe must have ended by then (`wait`).

Keys typed while the probe reads the terminal's answers are kept (`typed_meanwhile`), for the
app to take as typed: textual-image's own reader dropped them and left the rest of the answer
for the app to read as keys (`scr` typed at once came out as `r[?1;2c` in the tool filter)."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import select
import sys
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, TextIO

SHARED_MODULES = (
    "array", "base64", "fcntl", "logging", "random", "select", "termios", "tty",
    "rich.color", "rich.color_triplet", "rich.console", "rich.control", "rich.measure",
    "rich.segment", "rich.style",
    "PIL.Image",
)  # fmt: skip
"""What the probe's own modules import, loaded before the thread starts: the two threads never
import the same module at once."""

_probe: threading.Thread | None = None
_typed = bytearray()
_heard = False
"""The terminal has sent something back (an answer, keys typed)."""
_silent = False
"""The terminal left a query without any answer, having sent nothing back before (every
terminal answers the first one, device attributes, at once): it is asked nothing more."""


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


def typed_meanwhile() -> str:
    """What was typed while the probe read the terminal (call after `wait`)."""
    return _typed.decode(errors="replace")


def _probe_terminal() -> None:
    try:
        with _through_tmux(), _without_numpy():
            import textual_image._terminal as terminal

            terminal.capture_terminal_response = _capture_keeping_keys
            import textual_image.renderable  # noqa: F401  (its import asks the terminal)
            from textual_image._terminal import get_cell_size

            get_cell_size()
    except Exception:
        pass  # the import in the app's thread (`images.image_widget_class`) raises it again


@contextlib.contextmanager
def _without_numpy() -> Iterator[None]:
    """textual-image loads its Sixel encoder (and numpy, some 130 ms) to probe any terminal;
    its encoder does without numpy when numpy cannot be imported, so numpy is hidden while
    it loads (nothing else the app loads meanwhile imports numpy); `sixel_with_numpy` gives
    it back to the encoder when Sixel draws the images."""
    if "numpy" in sys.modules:
        yield
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # what makes an import fail
    try:
        yield
    finally:
        if sys.modules.get("numpy", 0) is None:
            del sys.modules["numpy"]


def sixel_with_numpy() -> None:
    """Sixel draws the images: its encoder, if loaded without numpy, loads again in the same
    module, now with numpy (the functions textual-image holds see the module's new globals)."""
    import textual_image._sixel

    if not textual_image._sixel._HAS_NUMPY:
        importlib.reload(textual_image._sixel)


@contextlib.contextmanager
def _capture_keeping_keys(
    start_marker: str, end_marker: str, timeout: float | None = None
) -> Iterator[SimpleNamespace]:
    """textual-image's `capture_terminal_response`: the terminal's answer to what is written
    inside the block (`response.sequence`, `TimeoutError` when none comes), but what comes
    before it or is not it (keys typed meanwhile) is kept in `_typed`, not dropped. Once the
    terminal is known to answer nothing (`_silent`), what is written inside the block is not
    sent, and no answer is awaited: each query cost it 0.1 s."""
    global _heard, _silent
    from textual_image._terminal import capture_mode

    response = SimpleNamespace(sequence="")
    if _silent:
        with _unsent():
            yield response
        raise TimeoutError("the terminal answers no queries")
    stdin = sys.__stdin__.buffer.fileno() if sys.__stdin__ else -1
    start, end = start_marker.encode(), end_marker.encode()
    with capture_mode():
        yield response
        pending = b""  # what may still become the answer
        while True:
            readable, _, _ = select.select([stdin], [], [], timeout)
            if not readable:
                _silent = not _heard
                _typed.extend(pending)
                raise TimeoutError("no answer from the terminal")
            pending += os.read(stdin, 1)
            _heard = True
            if pending.startswith(start) and pending.endswith(end):
                response.sequence = pending.decode(errors="replace")
                return
            if not _may_be_answer(pending, start):
                _typed.extend(pending)
                pending = b""


@contextlib.contextmanager
def _unsent() -> Iterator[None]:
    """What textual-image writes to the terminal (`sys.__stdout__`) meanwhile goes nowhere."""
    stdout = sys.__stdout__
    sys.__stdout__ = io.StringIO()  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        sys.__stdout__ = stdout  # type: ignore[misc]


def _may_be_answer(pending: bytes, start: bytes) -> bool:
    """Whether `pending` may still grow into an answer starting with `start`: a prefix of
    `start`, or an escape sequence after it not yet ended by a final byte (@ to ~)."""
    if len(pending) <= len(start):
        return start.startswith(pending)
    return pending.startswith(start) and not 0x40 <= pending[-1] <= 0x7E


KITTY_GRAPHICS_START = "\x1b_G"


@contextlib.contextmanager
def _through_tmux() -> Iterator[None]:
    """Inside tmux, send the probe's Kitty graphics query wrapped for tmux's passthrough: tmux
    reads a bare one as a title (the pane was named `Gi=...;AAAA`). With `allow-passthrough`
    on, the outer terminal gets the query; off (tmux's default), tmux drops it unseen."""
    stdout = sys.__stdout__
    if "TMUX" not in os.environ or stdout is None:
        yield
        return
    # what textual-image writes its queries to (replaced for the probe's moment only)
    sys.__stdout__ = _TmuxPassthrough(stdout)  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        sys.__stdout__ = stdout  # type: ignore[misc]


class _TmuxPassthrough:
    """A stream that wraps each Kitty graphics sequence written to it in tmux's passthrough
    (`ESC P tmux; ... ESC \\`, each ESC doubled) and passes all else on unchanged."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        if text.startswith(KITTY_GRAPHICS_START):
            text = "\x1bPtmux;" + text.replace("\x1b", "\x1b\x1b") + "\x1b\\"
        return self._inner.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
