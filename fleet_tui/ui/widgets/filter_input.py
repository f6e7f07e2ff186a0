"""The tool filter's text box: a search box, so `/` and ctrl+a select the query (the next keys
replace it) and ctrl+u clears it; names hardly ever hold a slash."""

from __future__ import annotations

from textual.widgets import Input

from fleet_tui.ui.keymap import bindings_for


class FilterInput(Input):
    """An Input whose keys are the keymap's "filter" area."""

    HELP_AREA = "filter"
    BINDINGS = bindings_for("filter")

    def action_select_query(self) -> None:
        self.select_all()

    def action_clear_filter(self) -> None:
        self.clear()
