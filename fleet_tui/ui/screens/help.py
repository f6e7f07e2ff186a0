"""F1: the keys of the focused area, then the keys that work everywhere (those that do something
for this target), then what the app's marks mean."""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from fleet_tui.ui.keymap import AREAS, MARKS, NOTES, Action, actions_for, key_label


def help_table(area: str, offered: Callable[[Action], bool] = lambda action: True) -> Table:
    """Keys of `area` first, then the global ones (only those `offered`), then the marks."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    areas = [area, "global"] if area != "global" else ["global"]
    for name in areas:
        table.add_row(Text(AREAS.get(name, name), style="bold underline"), "")
        for key, text in NOTES.get(name, []):
            table.add_row(Text(key), Text(text))
        for action in actions_for(name):
            if offered(action):
                key = key_label(action.key) or "ctrl+p, then"
                table.add_row(Text(key), Text(action.description))
        table.add_row("", "")
    table.add_row(Text("Marks", style="bold underline"), "")
    for mark, meaning in MARKS:
        table.add_row(Text(mark, style="bold"), Text(meaning))
    return table


class HelpScreen(ModalScreen[None]):
    """A modal list of keys; any of esc, F1 or q closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 84; height: auto; max-height: 90%; border: round $accent;
        background: $surface; padding: 1 2;
    }
    """
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close")]

    def __init__(self, area: str, offered: Callable[[Action], bool] = lambda action: True) -> None:
        super().__init__()
        self.area = area
        self.offered = offered

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = f"Help — {AREAS.get(self.area, self.area)}"
            yield Static(help_table(self.area, self.offered))
