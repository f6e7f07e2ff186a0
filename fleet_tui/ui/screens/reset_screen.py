"""Ask for an optional seed before resetting the env."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label


class ResetScreen(ModalScreen[tuple[bool, int | None]]):
    """Dismisses with (True, seed or None) to reset, or (False, None) to cancel."""

    DEFAULT_CSS = """
    ResetScreen { align: center middle; }
    ResetScreen > Vertical {
        width: 60; height: auto; border: round $warning; background: $surface; padding: 1 2;
    }
    ResetScreen Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    ResetScreen #seed-error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Reset the env"
            yield Label("Seed (optional, an integer):")
            yield Input(placeholder="no seed", id="seed", type="integer")
            yield Label("", id="seed-error")
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button("Reset", id="reset", variant="warning")

    @on(Input.Submitted)
    @on(Button.Pressed, "#reset")
    def _reset(self) -> None:
        text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(text) if text else None
        except ValueError:
            self.query_one("#seed-error", Label).update("The seed must be an integer.")
            return
        self.dismiss((True, seed))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss((False, None))
