"""Connecting or provisioning: what is happening, for how long, and a way to cancel."""

from __future__ import annotations

import time

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, LoadingIndicator, Static

from fleet_tui.text import clean


class ProgressPanel(Vertical):
    """Lines of progress with the elapsed time; `Cancel` posts `ProgressPanel.Cancelled`."""

    DEFAULT_CSS = """
    ProgressPanel {
        layer: overlay; display: none; width: 72; height: auto; max-height: 20;
        border: round $accent; background: $surface; padding: 0 1; offset: 0 4;
    }
    ProgressPanel.-shown { display: block; }
    ProgressPanel LoadingIndicator { height: 1; }
    ProgressPanel #progress-lines { height: auto; max-height: 12; }
    ProgressPanel Horizontal { height: auto; align-horizontal: right; }
    """

    class Cancelled(Message):
        """The user asked to stop connecting."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []
        self.started = time.monotonic()
        self.title = ""

    def compose(self) -> ComposeResult:
        yield LoadingIndicator()
        yield Static("", id="progress-lines", markup=False)
        with Horizontal():
            yield Static("", id="progress-elapsed", markup=False)
            yield Button("Cancel", id="progress-cancel", variant="error")

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    def start(self, title: str) -> None:
        self.title = clean(title)
        self.border_title = self.title
        self.lines = []
        self.started = time.monotonic()
        self.query_one("#progress-lines", Static).update("")
        self.add_class("-shown")
        self._tick()

    def add_line(self, line: str) -> None:
        self.lines.append(clean(line))
        self.query_one("#progress-lines", Static).update("\n".join(self.lines[-10:]))

    def stop(self) -> None:
        self.remove_class("-shown")

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

    def _tick(self) -> None:
        if self.shown:
            elapsed = int(time.monotonic() - self.started)
            self.query_one("#progress-elapsed", Static).update(
                f"{elapsed // 60}:{elapsed % 60:02} elapsed  "
            )

    @on(Button.Pressed, "#progress-cancel")
    def _cancel(self) -> None:
        self.post_message(self.Cancelled())
