"""The protocol and network log: one row per JSON-RPC message in (←) or out (→) and per HTTP
request (⇄), with its method, id, latency and size; filtered by words; enter opens one as
pretty JSON.

The rows come from the session's bounded log (`SessionController.traffic`, the latest 5000
messages), read on a timer while the pane is shown and something new arrived.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Static

from fleet_tui.envs.traffic import MAX_ENTRIES, TrafficEntry
from fleet_tui.text import name_line
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.screens.message_screen import MessageScreen

ARROWS = {"out": "→", "in": "←", "http": "⇄"}
KIND_STYLES = {"error": "red", "fault": "bold red", "notification": "cyan", "http": "dim"}
REFRESH_S = 0.5


def size_text(size: int) -> str:
    if size < 1024:
        return f"{size}B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f}K"
    return f"{size / 1024 / 1024:.1f}M"


def entry_cells(entry: TrafficEntry, width: int = 20) -> list[Text]:
    """What (direction, then method and id, or HTTP status, method and path), latency, size;
    an agent's message with the proxy (`in`: the agent sent it) is marked `agent`."""
    style = KIND_STYLES.get(entry.kind, "")
    what = Text("agent ", style="bold magenta") if entry.side == "agent" else Text()
    what.append(f"{ARROWS.get(entry.direction, '?')} ", style=style or "bold")
    if entry.direction == "http":
        verb, _, url = entry.method.partition(" ")
        what.append(f"{entry.status or 'failed'} {verb} {urlsplit(url).path}", style=style)
    else:
        what.append(name_line(entry.method or entry.kind, width), style=style)
        if entry.id is not None:
            what.append(f" #{entry.id}", style="dim")
        if entry.kind in ("error", "fault"):
            what.append(f" {entry.kind}", style=style)
    what.truncate(width, overflow="ellipsis")
    latency = f"{entry.latency_s * 1000:.0f}ms" if entry.latency_s is not None else ""
    return [
        what,
        Text(latency, style="dim", justify="right"),
        Text(size_text(entry.size_bytes), style="dim", justify="right"),
    ]


class ProtocolPane(Vertical):
    """The session's JSON-RPC messages and HTTP requests, filterable; enter shows one."""

    HELP_AREA = "protocol"
    BINDINGS = bindings_for("protocol")

    def __init__(
        self, entries: Callable[[], Iterable[TrafficEntry]], *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.entries = entries
        self.rows: deque[TrafficEntry] = deque()
        """The entries shown, oldest first."""
        self._stale = True
        self._last_seq = 0
        self._width = 0
        """The pane's width when its rows were drawn: a wider pane draws them again."""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Filter: method, in/out/http, error, id", id="protocol-filter")
        yield DataTable(id="protocol-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="protocol-count", markup=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key in ("message", "ms", "size"):
            table.add_column(key, key=key)
        self.set_interval(REFRESH_S, self.refresh_rows)

    def mark_stale(self) -> None:
        """Something new arrived: show it at the next refresh."""
        self._stale = True

    def refresh_rows(self, force: bool = False) -> None:
        """Add the new entries that pass the filter, drop those the log let go of."""
        if not (force or (self._stale and self.is_on_screen)):
            return
        self._stale = False
        table = self.query_one(DataTable)
        words = self.query_one("#protocol-filter", Input).value
        kept = list(self.entries())
        oldest = kept[0].seq if kept else self._last_seq + 1
        while self.rows and self.rows[0].seq < oldest:
            table.remove_row(str(self.rows.popleft().seq))
        self._width = self.size.width
        width = max(10, self.size.width - 19)  # the other columns, padding and scroll bar
        for entry in kept:
            if entry.seq > self._last_seq and entry.matches(words):
                table.add_row(*entry_cells(entry, width), key=str(entry.seq))
                self.rows.append(entry)
        self._last_seq = kept[-1].seq if kept else self._last_seq
        self.query_one("#protocol-count", Static).update(
            f"{len(self.rows)} of {len(kept)} (keeps {MAX_ENTRIES})"
        )

    @property
    def is_on_screen(self) -> bool:
        return self.display and self.size.width > 0 and self.region.width > 0

    @on(Input.Changed, "#protocol-filter")
    def _filter_changed(self) -> None:
        self._draw_again()

    def _draw_again(self) -> None:
        self.query_one(DataTable).clear()
        self.rows.clear()
        self._last_seq = 0
        self.refresh_rows(force=True)

    def on_resize(self, event: events.Resize) -> None:
        """The message column takes the width there is (the sidebar widened or zoomed)."""
        if event.size.width != self._width and self.rows:
            self._draw_again()

    def on_key(self, event: events.Key) -> None:
        """Down from the filter moves into the table."""
        table = self.query_one(DataTable)
        if event.key == "down" and self.query_one("#protocol-filter").has_focus:
            event.stop()
            table.focus()

    @on(DataTable.RowSelected, "#protocol-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open_message()

    def current(self) -> TrafficEntry | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((entry for entry in self.rows if str(entry.seq) == key), None)

    def action_open_message(self) -> None:
        entry = self.current()
        if entry is not None:
            self.app.push_screen(MessageScreen(entry))

    def focus_filter(self) -> None:
        self.screen.set_focus(self.query_one("#protocol-filter", Input))
