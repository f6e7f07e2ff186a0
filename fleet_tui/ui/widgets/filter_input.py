"""The tool filter's text box: a search box, so `/` and ctrl+a select the query (the next keys
replace it) and ctrl+u clears it; names hardly ever hold a slash."""

from __future__ import annotations

from textual.widgets import Input

from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.in_place import SizedByContainer


class FilterInput(Input, SizedByContainer):
    """An Input whose keys are the keymap's "filter" area. Its box is set by the sidebar: the
    longer or shorter text of each key moves its scroll range, not the rest of the screen."""

    HELP_AREA = "filter"
    BINDINGS = bindings_for("filter")

    def action_select_query(self) -> None:
        self.select_all()

    def action_clear_filter(self) -> None:
        self.clear()
