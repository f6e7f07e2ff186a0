"""Room to read: the sidebar's width (scaled to the terminal, or chosen with alt+←/→ or by
dragging its edge, and remembered), the zoom (ctrl+z) that gives the focused side the whole
body, with a title line saying how to get back, and a compact look on small terminals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.widget import Widget
from textual.widgets import Footer, Static

from fleet_tui.ui.app_part import AppPart
from fleet_tui.ui.widgets.splitter import Splitter

if TYPE_CHECKING:
    from fleet_tui.ui.preferences import Preferences

MIN_SIDEBAR = 20
MIN_WORK = 30
"""The work area keeps this many columns whatever width is asked for the sidebar."""
STEP = 4
SHORT_ROWS = 32
NARROW_COLUMNS = 100
"""Below these, the app takes its compact look (`-short`, `-narrow` on the app: app.tcss)."""
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


class SidebarLayout(AppPart):
    """The sidebar's width and the zoom."""

    if TYPE_CHECKING:
        preferences: Preferences

    zoomed_side = ""
    """The selector of the side shown alone ("" when not zoomed)."""
    _hidden_by_zoom: list[Widget] = []

    def mount_splitter(self) -> None:
        """The draggable edge, docked inside the sidebar: it hides with it."""
        self.query_one("#sidebar").mount(Splitter(id="splitter"))

    @property
    def computer_layout(self) -> bool:
        return self.query_one("#body").has_class("-computer")

    def sidebar_width(self) -> int:
        columns = self.size.width
        chosen = self.preferences.sidebar_width(self.computer_layout)
        if chosen is None:
            chosen = default_width(columns, self.computer_layout)
        return fit_width(chosen, columns)

    def apply_sidebar_width(self) -> None:
        if self.zoomed_side != "#sidebar":
            self.query_one("#sidebar").styles.width = self.sidebar_width()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT_ROWS, "-short")
        self.set_class(event.size.width < NARROW_COLUMNS, "-narrow")
        footer = self.query_one(Footer)
        footer.compact = event.size.width < NARROW_COLUMNS
        footer.show_command_palette = event.size.width >= NARROW_COLUMNS  # F1 lists ctrl+p
        self.apply_sidebar_width()

    def action_widen_sidebar(self) -> None:
        self._choose_width(self.sidebar_width() + STEP)

    def action_narrow_sidebar(self) -> None:
        self._choose_width(self.sidebar_width() - STEP)

    def _choose_width(self, width: int) -> None:
        if self.zoomed_side:
            self.action_toggle_zoom()
        self.query_one("#sidebar").display = True
        self.preferences.set_sidebar_width(self.computer_layout, fit_width(width, self.size.width))
        self.apply_sidebar_width()

    def on_splitter_dragged(self, event: Splitter.Dragged) -> None:
        width = fit_width(event.x - self.query_one("#body").region.x, self.size.width)
        if event.done:
            self.preferences.set_sidebar_width(self.computer_layout, width)
        self.query_one("#sidebar").styles.width = width

    def action_toggle_zoom(self) -> None:
        """The pane holding the focus (the result when none does) takes the whole body;
        pressed again, the layout comes back as it was."""
        bar = self.query_one("#zoom-bar", Static)
        if self.zoomed_side:
            for widget in self._hidden_by_zoom:
                widget.display = True
            self.query_one(self.zoomed_side).remove_class("-zoomed")
            self.zoomed_side, self._hidden_by_zoom = "", []
            bar.display = False
            self.apply_sidebar_width()
            return
        side = self._focused_pane()
        title, hidden = ZOOMS[side]
        self._hidden_by_zoom = [
            widget for selector in hidden if (widget := self.query_one(selector)).display
        ]
        for widget in self._hidden_by_zoom:
            widget.display = False
        if side == "#sidebar":
            self.query_one("#sidebar").styles.width = "1fr"
        self.query_one(side).add_class("-zoomed")
        self.zoomed_side = side
        bar.update(f" ⤢ {title} at full size · ctrl+z: back to the side-by-side view")
        bar.display = True

    def _focused_pane(self) -> str:
        focused = self.focused
        for selector in ZOOMS:
            pane = self.query_one(selector)
            if pane.display and focused is not None and pane in focused.ancestors_with_self:
                return selector
        return "#result"
