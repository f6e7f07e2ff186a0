"""Ask for an optional seed and env keywords before resetting the env."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from fleet_tui.forms.typed_text import keywords_from_text


@dataclass
class ResetAsked:
    """What the dialog asked for: a seed, and env keywords (an OpenEnv env's reset takes
    `dataset_name`, `start_cell`, ...)."""

    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)


class ResetScreen(ModalScreen[ResetAsked | None]):
    """Dismisses with what to reset with, or None to cancel. Text it cannot read is said in
    plain words and stays in its box."""

    DEFAULT_CSS = """
    ResetScreen { align: center middle; }
    ResetScreen > Vertical {
        width: 70; height: auto; border: round $warning; background: $surface; padding: 1 2;
    }
    ResetScreen Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    ResetScreen #reset-error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Reset the env"
            yield Label("Seed (optional, an integer):")
            yield Input(placeholder="no seed", id="seed", type="integer")
            yield Label("Env keywords (optional): key=value … or a JSON object")
            yield Input(placeholder="e.g. dataset_name=leg_counting", id="keywords")
            yield Label("", id="reset-error")
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button("Reset", id="reset", variant="warning")

    @on(Input.Submitted)
    @on(Button.Pressed, "#reset")
    def _reset(self) -> None:
        text = self.query_one("#seed", Input).value.strip()
        error = self.query_one("#reset-error", Label)
        try:
            seed = int(text) if text else None
        except ValueError:
            error.update("The seed must be an integer.")
            return
        try:
            options = keywords_from_text(self.query_one("#keywords", Input).value)
        except ValueError as problem:
            error.update(f"Env keywords: {problem}")
            return
        self.dismiss(ResetAsked(seed, options))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
