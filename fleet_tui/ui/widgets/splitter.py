"""The bar between the sidebar and the work area: dragged with the mouse, it sets the
sidebar's width."""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widget import Widget


class Splitter(Widget):
    """A one-column bar; drag it left or right (the app sets the width it is told)."""

    DEFAULT_CSS = """
    Splitter { width: 1; height: 1fr; color: $panel-lighten-2; }
    Splitter:hover, Splitter.-dragging { color: $accent; background: $accent 30%; }
    """

    class Dragged(Message):
        """The bar was dragged to screen column `x` (`done`: the button was released)."""

        def __init__(self, x: int, done: bool) -> None:
            super().__init__()
            self.x = x
            self.done = done

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tooltip = "Drag to widen or narrow the sidebar (alt+← / alt+→; ctrl+z: full width)"

    def render(self) -> str:
        return "\n".join("▕" for _ in range(max(1, self.size.height)))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.capture_mouse()
        self.add_class("-dragging")
        event.stop()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self.has_class("-dragging"):
            self.post_message(self.Dragged(int(event.screen_x), done=False))

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self.has_class("-dragging"):
            self.release_mouse()
            self.remove_class("-dragging")
            self.post_message(self.Dragged(int(event.screen_x), done=True))
