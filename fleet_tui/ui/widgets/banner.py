"""A one-line banner across the top: a warning or a lost connection, with an action button."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from fleet_tui.text import one_line


class Banner(Horizontal):
    """Hidden until `show(message, action=...)`; the button runs `app.action_<action>`."""

    DEFAULT_CSS = """
    Banner { height: auto; display: none; background: $error 30%; padding: 0 1; }
    Banner.-warning { background: $warning 25%; }
    Banner.-shown { display: block; }
    Banner > Static { width: 1fr; padding: 1 0 0 0; }
    Banner > Button { min-width: 14; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.action: str | None = None
        self.message = ""

    def compose(self) -> ComposeResult:
        yield Static("", markup=False, id="banner-text")
        yield Button("Reconnect", id="banner-button", variant="warning")
        yield Button("✕", id="banner-close")

    def show(
        self, message: str, *, action: str | None = None, label: str = "", warning: bool = False
    ) -> None:
        self.message = one_line(message, 400)
        self.action = action
        self.query_one("#banner-text", Static).update(self.message)
        button = self.query_one("#banner-button", Button)
        button.display = action is not None
        button.label = label or (action or "").replace("_", " ").capitalize()
        self.set_class(warning, "-warning")
        self.add_class("-shown")

    def hide(self) -> None:
        self.remove_class("-shown")
        self.message = ""

    @property
    def shown(self) -> bool:
        return self.has_class("-shown")

    @on(Button.Pressed, "#banner-button")
    async def _act(self) -> None:
        if self.action:
            await self.app.run_action(self.action)

    @on(Button.Pressed, "#banner-close")
    def _close(self) -> None:
        self.hide()
