"""The line shown in place of an empty tool list: what matched nothing and how to clear it."""

from __future__ import annotations

from textual.widgets import Static

from fleet_tui.text import one_line, visible
from fleet_tui.ui.keymap import ACTIONS, key_label

CLEAR_KEY = key_label(next(a.key for a in ACTIONS if a.name == "clear_filter"))


class NoMatch(Static):
    """Hidden unless the filter matches no tool."""

    DEFAULT_CSS = """
    NoMatch { display: none; height: auto; color: $text-muted; padding: 1 1; }
    NoMatch.-shown { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)

    def show_for(self, query: str, matches: int) -> None:
        """Say that `query` matches nothing (when `matches` is 0 and there is a query)."""
        shown = bool(query) and not matches
        if shown:
            self.update(
                f"No tool matches '{one_line(visible(query), 40)}'. {CLEAR_KEY} clears the filter."
            )
        self.set_class(shown, "-shown")
