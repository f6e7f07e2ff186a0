"""Room to read: the sidebar's width (scaled to the terminal, or chosen with alt+←/→ or by
dragging its edge, and remembered), the zoom (ctrl+z) that gives the focused side the whole
body, with a title line saying how to get back, and a compact look on small terminals.

A part of the main screen with a narrow port: `SidebarLayout` reaches the screen only through
`LayoutHost` (its size, its focus and its panes by selector).
"""

from __future__ import annotations

from typing import Any, Protocol

from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer, Static

from fleet_tui.ui.preferences import Preferences
from fleet_tui.ui.widgets.splitter import Splitter

MIN_SIDEBAR = 20
MIN_WORK = 30
"""The work area keeps this many columns whatever width is asked for the sidebar."""
STEP = 4
SHORT_ROWS = 32
NARROW_COLUMNS = 100
"""Below these, the app takes its compact look (`-short`, `-narrow` on the screen: app.tcss)."""
ZOOMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "#sidebar": ("The sidebar", ("#work", "#screenshot-pane")),
    "#tool-panel": ("The form", ("#sidebar", "#result", "#screenshot-pane")),
    "#result": ("The result", ("#sidebar", "#tool-panel", "#screenshot-pane")),
    "#screenshot-pane": ("The screenshot", ("#sidebar", "#work")),
}
"""The panes the zoom shows alone: (what its title calls it, what it hides)."""


def default_width(columns: int, computer: bool) -> int:
    """The sidebar's width before the person chooses one: a strip beside a computer-use
    screenshot; otherwise 36 columns (every tab in sight) up to 120 columns, 40% of the width
    from 140, and in between one more column for each."""
    if computer:
        return max(MIN_SIDEBAR, min(40, round(columns * 0.22)))
    if columns >= 140:
        return round(columns * 0.4)
    return 36 + max(0, columns - 120)


def fit_width(width: int, columns: int) -> int:
    """`width` within bounds: at least MIN_SIDEBAR, leaving MIN_WORK to the work area."""
    return max(MIN_SIDEBAR, min(width, columns - MIN_WORK))


class LayoutHost(Protocol):
    """What the layout needs of the screen it lays out."""

    @property
    def size(self) -> Size: ...

    @property
    def focused(self) -> Widget | None: ...

    @property
    def footer(self) -> Footer: ...

    def query_one(self, selector: str) -> Widget: ...

    def set_class(self, add: bool, *class_names: str, update: bool = True) -> Any: ...


class SidebarLayout:
    """The sidebar's width and the zoom."""

    def __init__(self, screen: LayoutHost, preferences: Preferences) -> None:
        self._screen = screen
        self._preferences = preferences
        self.zoom_bar = Static("", id="zoom-bar", markup=False)
        """The title line of the zoom (composed by the screen, hidden until zoomed)."""
        self.zoomed_side = ""
        """The selector of the side shown alone ("" when not zoomed)."""
        self._hidden_by_zoom: list[Widget] = []

    def mount_splitter(self) -> None:
        """The draggable edge, docked inside the sidebar: it hides with it."""
        self._sidebar.mount(Splitter(id="splitter"))

    @property
    def _sidebar(self) -> Widget:
        return self._screen.query_one("#sidebar")

    @property
    def computer_layout(self) -> bool:
        return self._screen.query_one("#body").has_class("-computer")

    def sidebar_width(self) -> int:
        columns = self._screen.size.width
        chosen = self._preferences.sidebar_width(self.computer_layout)
        if chosen is None:
            chosen = default_width(columns, self.computer_layout)
        return fit_width(chosen, columns)

    def apply_sidebar_width(self) -> None:
        if self.zoomed_side != "#sidebar":
            self._sidebar.styles.width = self.sidebar_width()

    def fit(self, size: Size) -> None:
        """Take the compact look on a small terminal and scale the sidebar to `size`."""
        self._screen.set_class(size.height < SHORT_ROWS, "-short")
        self._screen.set_class(size.width < NARROW_COLUMNS, "-narrow")
        footer = self._screen.footer
        footer.compact = size.width < NARROW_COLUMNS
        footer.show_command_palette = size.width >= NARROW_COLUMNS  # F1 lists ctrl+p
        self.apply_sidebar_width()

    def widen(self) -> None:
        self._choose_width(self.sidebar_width() + STEP)

    def narrow(self) -> None:
        self._choose_width(self.sidebar_width() - STEP)

    def _choose_width(self, width: int) -> None:
        if self.zoomed_side:
            self.toggle_zoom()
        self._sidebar.display = True
        columns = self._screen.size.width
        self._preferences.set_sidebar_width(self.computer_layout, fit_width(width, columns))
        self.apply_sidebar_width()

    def dragged(self, event: Splitter.Dragged) -> None:
        """The sidebar's edge was dragged to `event.x` (kept once the drag is `done`)."""
        body = self._screen.query_one("#body")
        width = fit_width(event.x - body.region.x, self._screen.size.width)
        if event.done:
            self._preferences.set_sidebar_width(self.computer_layout, width)
        self._sidebar.styles.width = width

    def toggle_zoom(self) -> None:
        """The pane holding the focus (the result when none does) takes the whole body;
        pressed again, the layout comes back as it was."""
        bar = self.zoom_bar
        if self.zoomed_side:
            for widget in self._hidden_by_zoom:
                widget.display = True
            self._screen.query_one(self.zoomed_side).remove_class("-zoomed")
            self.zoomed_side, self._hidden_by_zoom = "", []
            bar.display = False
            self.apply_sidebar_width()
            return
        side = self._focused_pane()
        title, hidden = ZOOMS[side]
        self._hidden_by_zoom = [
            widget for selector in hidden if (widget := self._screen.query_one(selector)).display
        ]
        for widget in self._hidden_by_zoom:
            widget.display = False
        if side == "#sidebar":
            self._sidebar.styles.width = "1fr"
        self._screen.query_one(side).add_class("-zoomed")
        self.zoomed_side = side
        bar.update(f" ⤢ {title} at full size · ctrl+z: back to the side-by-side view")
        bar.display = True

    def _focused_pane(self) -> str:
        focused = self._screen.focused
        for selector in ZOOMS:
            pane = self._screen.query_one(selector)
            if pane.display and focused is not None and pane in focused.ancestors_with_self:
                return selector
        return "#result"
