"""Browse recorded sessions: the recent ones listed (newest first, filtered as you type), a
folder's listed when its path is typed; then one session's events in order, a call showing its
arguments and result."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from fleet_tui.envs.base import EnvError
from fleet_tui.envs.targets import InstanceTarget
from fleet_tui.session.events import (
    CallEvent,
    ConnectEvent,
    ErrorEvent,
    LogEvent,
    PromptEvent,
    ReadEvent,
    ResetEvent,
    ResultEvent,
    SessionEvent,
    TaskEvent,
    UnmadeEvent,
    VerifyEvent,
)
from fleet_tui.session.listing import SessionSummary, recent_sessions
from fleet_tui.session.reader import Session, load_session
from fleet_tui.session.recorder import sessions_dir
from fleet_tui.text import clean, counted, one_line, pretty_json, visible
from fleet_tui.ui.export_action import export_session_file
from fleet_tui.ui.widgets.verdict import verdict_headline, verdict_text


def event_summary(event: SessionEvent) -> str:
    """One line per event for the list."""
    if isinstance(event, ConnectEvent):
        target = event.target
        where = event.info.env_key if event.info else None
        if where is None and isinstance(target, InstanceTarget):
            where = target.env_key
        return f"{where or 'env'} · {len(event.tools)} tools"
    if isinstance(event, ResetEvent):
        return f"seed {event.seed}" if event.seed is not None else event.message or "reset"
    if isinstance(event, CallEvent | UnmadeEvent):
        arguments = json.dumps(event.arguments, ensure_ascii=False, default=str)[1:-1]
        outcome = f" · {event.outcome}: {event.message}" if isinstance(event, UnmadeEvent) else ""
        return f"{visible(event.tool)} {arguments}{outcome}"
    if isinstance(event, ResultEvent):
        kinds = ",".join(getattr(b, "kind", b.type) for b in event.result.blocks)
        return f"→ #{event.call_seq} {'error ' if event.result.is_error else ''}[{kinds}]"
    if isinstance(event, TaskEvent):
        return event.task.key if event.task else "no task"
    if isinstance(event, VerifyEvent):
        return f"{event.task_key} · {verdict_headline(event.verdict)}"
    if isinstance(event, ErrorEvent):
        return event.message
    if isinstance(event, LogEvent):
        data = event.data if isinstance(event.data, str) else json.dumps(event.data, default=str)
        return f"{event.level} {data}"
    if isinstance(event, ReadEvent):
        return f"{visible(event.uri)} · {event.error or f'{len(event.contents)} contents'}"
    if isinstance(event, PromptEvent):
        arguments = json.dumps(event.arguments, ensure_ascii=False)[1:-1]
        outcome = event.error or counted(len(event.messages), "message")
        return f"{visible(event.name)} {arguments} · {outcome}"
    return ""


def event_detail(session: Session, event: SessionEvent) -> Text:
    """Everything about one event, as literal text."""
    if isinstance(event, VerifyEvent):
        after = f"call #{event.after_seq}" if event.after_seq else "the start"
        return verdict_text(event.verdict, after=after)
    text = Text()
    if isinstance(event, ResultEvent):
        result = event.result
        for index, block in enumerate(result.blocks, 1):
            text.append(f"block {index}: {block.type}\n", style="bold dim")
            if block.type == "text":
                text.append(clean(block.text) + "\n")
            elif block.type == "image":
                text.append(f"{block.mime_type} {stored_file(session, block.file)}\n")
            elif block.type == "stored":
                size = f"{block.kind} block of {block.size_bytes} bytes"
                text.append(f"{size} in {stored_file(session, block.file)}\n")
            elif block.type == "stored_blob":
                size = f"{block.mime_type or 'binary'} contents of {block.size_bytes} bytes"
                text.append(f"{clean(size)} in {stored_file(session, block.file)}\n")
        if result.structured is not None:
            text.append("structured\n", style="bold dim")
            text.append(clean(json.dumps(result.structured, indent=2, default=str)) + "\n")
        elif (stored := result.structured_stored) is not None:
            text.append("structured\n", style="bold dim")
            text.append(f"{stored.size_bytes} bytes in {stored_file(session, stored.file)}\n")
        text.append(f"latency {result.latency_s * 1000:.0f} ms · {result.endpoint}", style="dim")
        return text
    data = event.model_dump(mode="json")
    text.append(clean(pretty_json(data)))
    return text


def stored_file(session: Session, file: str) -> str:
    """A file stored beside the session, as shown: its name, and whether it is missing."""
    return file if (session.path.parent / file).exists() else f"{file} (missing)"


class SessionBrowserScreen(Screen):
    """Lists the recent sessions (or a folder's), opens one (chosen, or its path given or
    typed) and lists its events."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Close"),
        Binding("e", "export_page", "Export as a web page"),
        Binding("p", "play_back", "Play back"),
    ]
    DEFAULT_CSS = """
    SessionBrowserScreen #session-path { dock: top; }
    SessionBrowserScreen #session-problems { height: auto; color: $warning; padding: 0 1; }
    SessionBrowserScreen #session-body { height: 1fr; }
    SessionBrowserScreen #session-list { height: 1fr; }
    SessionBrowserScreen #session-events { width: 3fr; }
    SessionBrowserScreen #session-detail-scroll { width: 2fr; border-left: solid $panel; }
    SessionBrowserScreen #session-detail { padding: 0 1; }
    """

    def __init__(self, path: str | Path | None = None) -> None:
        super().__init__()
        self.initial = str(path) if path else ""
        self.session: Session | None = None
        self.listed: list[SessionSummary] = []
        """The sessions of the folder listed (all, before the filter)."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(
            value=self.initial,
            placeholder="filter the sessions, or type a session file's or a folder's path",
            id="session-path",
        )
        yield Static("", id="session-problems")
        yield DataTable(id="session-list", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="session-body"):
            yield DataTable(id="session-events", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="session-detail-scroll", can_focus=False):
                yield Static("", id="session-detail")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#session-events", DataTable)
        for label in ("#", "time", "event", "summary"):
            table.add_column(label, key=label)
        listing = self.query_one("#session-list", DataTable)
        for label in ("written", "target", "calls", "verdicts", "notes", "file"):
            listing.add_column(label, key=label)
        if self.initial:
            self.open(self.initial)
        else:
            self.list_folder(sessions_dir())
            self.query_one(Input).focus()

    # -- the list of sessions ----------------------------------------------------------------

    def list_folder(self, folder: Path) -> None:
        """List the sessions in `folder` (newest first), the events hidden."""
        self.session = None
        self.listed = recent_sessions(folder) if folder.is_dir() else []
        self._show_listing(True)
        none = f"No recorded sessions in {folder} yet." if not self.listed else ""
        self.query_one("#session-problems", Static).update(Text(none))
        self._fill_list("")

    def _show_listing(self, listing: bool) -> None:
        self.query_one("#session-list").display = listing
        self.query_one("#session-body").display = not listing

    def _fill_list(self, query: str) -> None:
        listing = self.query_one("#session-list", DataTable)
        listing.clear()
        for summary in self.listed:
            if query and not summary.matches(query):
                continue
            listing.add_row(
                Text(summary.written.strftime("%Y-%m-%d %H:%M"), style="dim"),
                Text(one_line(summary.target, 60)),
                Text(str(summary.calls)),
                Text(summary.verdicts),
                Text(str(summary.notes or "-")),
                Text(summary.path.name, style="dim"),
                key=str(summary.path),
            )

    @on(Input.Changed, "#session-path")
    def _filter_changed(self, event: Input.Changed) -> None:
        if self.query_one("#session-list").display:
            self._fill_list(event.value.strip())

    @on(DataTable.RowSelected, "#session-list")
    def _session_chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.open(event.row_key.value)

    @on(Input.Submitted, "#session-path")
    def _path_submitted(self, event: Input.Submitted) -> None:
        """A file's path opens it, a folder's lists its sessions; else the first session the
        filter leaves is opened."""
        event.stop()
        typed = event.value.strip()
        path = Path(typed).expanduser()
        listing = self.query_one("#session-list", DataTable)
        if typed and path.is_dir():
            self.list_folder(path)
        elif (typed and path.is_file()) or not listing.display or not listing.row_count:
            self.open(typed)
        else:
            row = listing.coordinate_to_cell_key(listing.cursor_coordinate).row_key
            self.open(str(row.value))

    # -- one session's events --------------------------------------------------------------------

    def open(self, path: str) -> bool:
        if Path(path).expanduser().is_dir():
            self.list_folder(Path(path).expanduser())
            return True
        table = self.query_one("#session-events", DataTable)
        table.clear()
        problems = self.query_one("#session-problems", Static)
        try:
            self.session = load_session(Path(path).expanduser())
        except EnvError as error:
            self.session = None
            problems.update(Text(error.message))
            return False
        self._show_listing(False)
        problems.update(Text("\n".join(self.session.problems)))
        for index, event in enumerate(self.session.events):
            table.add_row(
                Text(str(event.seq), style="dim"),
                Text(event.at[11:19], style="dim"),
                Text(event.event),
                Text(one_line(event_summary(event), 100)),
                key=str(index),
            )
        table.focus()
        return True

    # -- sharing the chosen session -------------------------------------------------------------

    def chosen_path(self) -> Path | None:
        """The session open here, else the one highlighted in the list."""
        if self.session is not None:
            return self.session.path
        listing = self.query_one("#session-list", DataTable)
        if not listing.display or not listing.row_count:
            return None
        row = listing.coordinate_to_cell_key(listing.cursor_coordinate).row_key
        return Path(str(row.value))

    def action_export_page(self) -> None:
        path = self.chosen_path()
        if path is None:
            self.notify("Choose a session first.", severity="warning")
            return
        export_session_file(self.app, path)

    def action_play_back(self) -> None:
        """`fleet-tui replay SESSION --play` in this terminal; this app comes back after it."""
        path = self.chosen_path()
        if path is None:
            self.notify("Choose a session first.", severity="warning")
            return
        command = [sys.executable, "-m", "fleet_tui", "replay", str(path), "--play"]
        try:
            with self.app.suspend():
                subprocess.run(command, check=False)
        except SuspendNotSupported:
            line = f"fleet-tui replay {shlex.quote(str(path))} --play"
            self.notify(f"This terminal cannot hand over: run {line}", markup=False, timeout=15)

    @on(DataTable.RowHighlighted, "#session-events")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.session is None or event.row_key.value is None:
            return
        chosen = self.session.events[int(event.row_key.value)]
        self.query_one("#session-detail", Static).update(event_detail(self.session, chosen))
