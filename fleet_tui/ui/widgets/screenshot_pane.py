"""The latest screenshot of a computer-use env, with click-to-act and a typing mode."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.screens.image_screen import ImageScreen
from fleet_tui.ui.widgets.image_view import ImageView
from fleet_tui.ui.widgets.in_place import set_content

# Textual key names -> the key names computer-use tools take (xdotool style).
SPECIAL_KEYS = {
    "enter": "Return",
    "backspace": "BackSpace",
    "tab": "Tab",
    "delete": "Delete",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "Page_Up",
    "pagedown": "Page_Down",
}
TYPING_FLUSH_S = 0.4
"""Printable keys typed within this time of each other go out as one `type` action."""


def computer_key(key: str) -> str | None:
    """The computer-use name of a Textual key (`ctrl+a` -> `ctrl+a`, `enter` -> `Return`)."""
    if key in SPECIAL_KEYS:
        return SPECIAL_KEYS[key]
    if key.startswith(("ctrl+", "alt+", "shift+")):
        *mods, last = key.split("+")
        return "+".join([*mods, SPECIAL_KEYS.get(last, last)])
    if key.startswith("f") and key[1:].isdigit():
        return key.upper()
    return None


class ScreenshotPane(Vertical, can_focus=True):
    """Shows the newest screenshot. Clicks and (in typing mode) keys become computer actions."""

    HELP_AREA = "screenshot"
    BINDINGS = bindings_for("screenshot")

    live: reactive[bool] = reactive(False)
    typing: reactive[bool] = reactive(False)

    class Act(Message):
        """A computer action the user made on the screenshot (`send`: call it now)."""

        def __init__(self, arguments: dict, *, send: bool) -> None:
            super().__init__()
            self.arguments = arguments
            self.send = send

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Screenshot"
        self._typed = ""
        self._flush_timer: Timer | None = None
        self.last_click: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="screenshot-modes", markup=False)
        yield ImageView(id="screenshot-image")

    def on_mount(self) -> None:
        self._show_modes()

    @property
    def image(self) -> ImageView:
        return self.query_one("#screenshot-image", ImageView)

    def show(self, data: bytes, mime_type: str) -> None:
        """Show the next screenshot; the modes line changes once it is decoded (`Ready`)."""
        self.image.show(data, mime_type)

    def on_image_view_ready(self) -> None:
        self._show_modes()

    def watch_live(self) -> None:
        self._show_modes()

    def watch_typing(self) -> None:
        self._show_modes()
        if self.typing:
            self.focus()

    def _show_modes(self) -> None:
        if not self.is_mounted:
            return
        line = Text()
        line.append(
            " LIVE " if self.live else " click fills form ",
            style="bold reverse green" if self.live else "dim",
        )
        line.append("  ")
        line.append(
            " TYPING " if self.typing else "ctrl+t: typing mode",
            style="bold reverse magenta" if self.typing else "dim",
        )
        if self.last_click:
            line.append(f"  last click {self.last_click[0]},{self.last_click[1]}", style="dim")
        if self.image.picture is not None:
            width, height = self.image.image_size
            line.append(f"  {width}x{height}", style="dim")
        set_content(self.query_one("#screenshot-modes", Static), line)
        self.set_class(self.typing, "-typing")

    def on_image_view_clicked(self, event: ImageView.Clicked) -> None:
        event.stop()
        self.click_at(event.x, event.y)

    def click_at(self, x: int, y: int) -> None:
        """A click at image pixel (x, y): fill the form, or in live mode send it."""
        self.last_click = (x, y)
        self._show_modes()
        self.post_message(self.Act({"action": "left_click", "coordinate": [x, y]}, send=self.live))

    async def on_key(self, event: events.Key) -> None:
        if not self.typing or event.key in ("ctrl+t", "ctrl+q", "f1", "ctrl+p"):
            return
        if event.key == "escape":
            event.stop()
            self._flush()
            self.typing = False
            return
        event.stop()
        event.prevent_default()
        if event.is_printable and event.character:
            self._typed += event.character
            if self._flush_timer is not None:
                self._flush_timer.stop()
            self._flush_timer = self.set_timer(TYPING_FLUSH_S, self._flush)
            return
        name = computer_key(event.key)
        if name:
            self._flush()
            self.post_message(self.Act({"action": "key", "text": name}, send=True))

    def _flush(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.stop()
            self._flush_timer = None
        if self._typed:
            text, self._typed = self._typed, ""
            self.post_message(self.Act({"action": "type", "text": text}, send=True))

    def action_open_image(self) -> None:
        """Full screen; a click there acts like a click on the pane."""
        if self.image.picture is None:
            return

        def clicked(point: tuple[int, int] | None) -> None:
            if point is not None:
                self.click_at(*point)

        self.app.push_screen(ImageScreen(self.image, clickable=True), clicked)

    def action_save_image(self) -> None:
        self.image.save()
