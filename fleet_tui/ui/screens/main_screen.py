"""The app's main screen, under its dialogs: the status bar, the banner, the sidebar's panes,
the work area (the form and the result), the screenshot pane, the progress panel and the
footer. It keeps the status line, the sidebar's panes (those composed here and those added
at run time) and, through its `SidebarLayout` part (`layout.py`), the sidebar's width and the
zoom; it shows the session's calls in the history and under the form, and lays itself out for
the env's tools.

It gets what makes the session (called once its first frame is drawn: the session's modules
load then) and what extensions add to the status line through its constructor; it never
imports the App class."""

from __future__ import annotations

from asyncio import gather
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane

from fleet_tui.collector import loading_modules
from fleet_tui.text import describe_error, name_line, one_line
from fleet_tui.ui.layout import SidebarLayout
from fleet_tui.ui.preferences import Preferences
from fleet_tui.ui.widgets.banner import Banner
from fleet_tui.ui.widgets.in_place import PaintsShownWidgets
from fleet_tui.ui.widgets.keys_footer import KeysFooter
from fleet_tui.ui.widgets.progress_panel import ProgressPanel
from fleet_tui.ui.widgets.splitter import Splitter
from fleet_tui.ui.widgets.status_bar import StatusBar, status_text
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_panel import ToolPanel

if TYPE_CHECKING:  # the session's models and the panes `_mount_the_rest` mounts load then
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import Tool
    from fleet_tui.ui.widgets.history import HistoryTable
    from fleet_tui.ui.widgets.protocol_log import ProtocolPane
    from fleet_tui.ui.widgets.result_view import ResultView
    from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
    from fleet_tui.ui.widgets.server_log import ServerLogPane

SIDEBAR_BESIDE_PICTURE = 100
"""From this many columns the sidebar stays beside a computer-use env's picture."""
HISTORY_EMPTY = (
    "No calls yet. Each call, reset and verdict appears here: enter shows its result, "
    "r runs it again, l loads its arguments into the form."
)


class ProgressLine(Message):
    """One line of connection progress (posted from any thread)."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line


class MainScreen(PaintsShownWidgets):
    """The screen the app opens on, and what is on it (repaints of widgets in a tab not shown
    are left out: see `PaintsShownWidgets`)."""

    class Ready(Message):
        """The screen is up: what is on it can be used (the app connects then)."""

    def __init__(
        self,
        open_session: Callable[[], SessionController],
        status_notes: list[Callable[[], Text]],
        preferences: Preferences,
        first_timeout: float | None,
    ) -> None:
        super().__init__()
        self._open_session = open_session
        """Makes the session (or gives the one made): called once the first frame is drawn,
        as its modules (the env's and the session's models) load then."""
        self._session: SessionController | None = None
        self._status_notes = status_notes
        """What extensions add to the status line (the app's list, filled after this)."""
        self._first_timeout = first_timeout
        """A call's time limit until the tool panel's field changes it (`--timeout`)."""
        self.sidebar_layout = SidebarLayout(self, preferences)
        """The sidebar's width (remembered in `preferences`) and the zoom."""

    complete = False
    """Whether the panes the first frame leaves out are mounted (`_mount_the_rest`)."""
    server_log_pane: ServerLogPane
    protocol_pane: ProtocolPane
    """Both made with the rest, then kept here, not looked up per message: a server may send
    thousands a second."""

    def compose(self) -> ComposeResult:
        """What the first frame shows; the panes out of sight at first (the history, the
        server log and the protocol tabs' content, the result and the screenshot) are mounted
        right after it by `_mount_the_rest`: Textual styles every widget it mounts, and those
        are half of the screen's widgets."""
        yield StatusBar(id="status")
        yield Banner(id="banner")
        yield self.sidebar_layout.zoom_bar
        with Horizontal(id="body"):
            # Sidebar panes: add a TabPane here (or call add_sidebar_pane at run time). Short
            # labels: with Resources and Prompts, six tabs fit a 36-column sidebar.
            with TabbedContent(id="sidebar"):
                with TabPane("Tools", id="pane-tools"):
                    yield ToolList(id="tools")
                yield TabPane("Hist", id="pane-history")
                yield TabPane("Log", id="pane-log")
                yield TabPane("Proto", id="pane-protocol")
            with Vertical(id="work"):
                yield ToolPanel(id="tool-panel", timeout_s=self._first_timeout)
        yield ProgressPanel(id="progress")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sidebar_layout.zoom_bar.display = False
        self.sidebar_layout.mount_splitter()
        self.sidebar_layout.fit(self.app.size)
        # Keys typed while the env connects filter the tools it will list (Textual's first
        # focus, the first focusable widget, is the hidden banner's button: they were lost).
        self.tool_list.focus_filter()
        self.call_after_refresh(self._mount_the_rest)

    async def _mount_the_rest(self) -> None:
        """Make the session and mount what the first frame leaves out, then say the screen is
        up (`Ready`): what connecting and the extensions touch is all there by then. Their
        modules load here, not before the first frame."""
        with loading_modules():
            from fleet_tui.ui.widgets.history import HistoryTable
            from fleet_tui.ui.widgets.protocol_log import ProtocolPane
            from fleet_tui.ui.widgets.result_view import ResultView
            from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
            from fleet_tui.ui.widgets.server_log import ServerLogPane

        try:
            session = self._session = self._open_session()
        except Exception as error:  # its file cannot be written, say: the app ends, saying why
            reason = f"fleet-tui: cannot start the session: {describe_error(error)}"
            self.app.exit(return_code=2, message=Text(reason))
            return
        # The status bar owns the clock's timer, so it stops ticking when the bar is removed.
        self.query_one(StatusBar).set_interval(1.0, self.refresh_status)
        self.refresh_status()
        self.server_log_pane = ServerLogPane(id="server-log")
        self.protocol_pane = ProtocolPane(lambda: session.traffic, id="protocol")
        screenshot_pane = ScreenshotPane(id="screenshot-pane")
        screenshot_pane.display = False
        history = [
            Static(HISTORY_EMPTY, id="history-empty", markup=False),
            HistoryTable(id="history"),
        ]
        with self.app.batch_update():  # one layout and one paint for them all
            await gather(
                self.query_one("#work").mount(ResultView(id="result")),
                self.query_one("#body").mount(screenshot_pane),
                self.query_one("#pane-history").mount_all(history),
                self.query_one("#pane-log").mount(self.server_log_pane),
                self.query_one("#pane-protocol").mount(self.protocol_pane),
            )
        self.complete = True
        self.post_message(self.Ready())

    def on_resize(self, event: events.Resize) -> None:
        self.sidebar_layout.fit(event.size)

    def on_splitter_dragged(self, event: Splitter.Dragged) -> None:
        self.sidebar_layout.dragged(event)

    # -- what is on it (the classes of what `_mount_the_rest` mounts are imported when used) -----

    @property
    def sidebar(self) -> TabbedContent:
        return self.query_one("#sidebar", TabbedContent)

    @property
    def tool_list(self) -> ToolList:
        return self.query_one(ToolList)

    @property
    def tool_panel(self) -> ToolPanel:
        return self.query_one(ToolPanel)

    @property
    def result_view(self) -> ResultView:
        from fleet_tui.ui.widgets.result_view import ResultView

        return self.query_one(ResultView)

    @property
    def history(self) -> HistoryTable:
        from fleet_tui.ui.widgets.history import HistoryTable

        return self.query_one(HistoryTable)

    @property
    def screenshot_pane(self) -> ScreenshotPane:
        from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane

        return self.query_one(ScreenshotPane)

    @property
    def banner(self) -> Banner:
        return self.query_one(Banner)

    @property
    def footer(self) -> Footer:
        return self.query_one(Footer)

    @property
    def progress(self) -> ProgressPanel:
        return self.query_one(ProgressPanel)

    def on_progress_line(self, message: ProgressLine) -> None:
        self.progress.add_line(message.line)

    @on(ToolList.Chosen)
    async def _tool_chosen(self, event: ToolList.Chosen) -> None:
        if self.tool_panel.tool is None or self.tool_panel.tool.name != event.tool.name:
            await self.tool_panel.show_tool(event.tool)
        self.call_after_refresh(self.tool_panel.focus_form)

    # -- the session's calls ---------------------------------------------------------------------

    def show_call_added(self, record: CallRecord) -> None:
        """A call, reset or verdict joins the history; the form says the person's call runs."""
        from fleet_tui.controller import Caller, CallStatus

        self.query_one("#history-empty").display = False
        self.history.add_entry(record)
        if record.status == CallStatus.RUNNING and record.caller == Caller.YOU:
            self.tool_panel.set_state(f"calling {name_line(record.tool, 40)}… (esc cancels)")

    def show_call_progress(
        self, record: CallRecord, progress: float, total: float | None, message: str | None
    ) -> None:
        if record.is_running:
            self.tool_panel.show_progress(progress, total, message)

    def show_call_finished(self, record: CallRecord) -> None:
        """The history's row of `record` and, for the person's call, the form's state line."""
        from fleet_tui.controller import Caller

        self.tool_panel.hide_progress()
        self.history.update_entry(record)
        if record.caller == Caller.YOU:
            message = f": {one_line(record.message, 80)}" if record.message else ""
            self.tool_panel.set_state(f"{record.status}{message}")

    # -- laid out for the env's tools -----------------------------------------------------------

    def lay_out_for(self, computer_use: bool) -> None:
        """Show a computer-use env's picture beside the work area (and give it the sidebar's
        room on a narrow terminal), or hide it."""
        self.screenshot_pane.display = computer_use
        self.query_one("#body").set_class(computer_use, "-computer")
        self.sidebar.display = self._sidebar_fits(computer_use)
        self.sidebar_layout.apply_sidebar_width()

    def _sidebar_fits(self, computer_use: bool) -> bool:
        """A computer-use env's picture takes the room of the sidebar when the terminal is
        narrow (under SIDEBAR_BESIDE_PICTURE columns), unless something was typed in its tool
        filter while connecting (that text stays in sight)."""
        if not computer_use or self.app.size.width >= SIDEBAR_BESIDE_PICTURE:
            return True
        return bool(self.tool_list.query_one("#tool-filter", Input).value)

    def focus_after_connecting(self, tools: list[Tool], computer_use: bool) -> None:
        """Leave the focus where the person put it while connecting (keys typed meanwhile went
        to the filter); the only tool's form takes it if nothing was typed, as there is nothing
        to pick. When a computer-use env's picture hides the filter, the picture takes it."""
        filter_box = self.tool_list.query_one("#tool-filter", Input)
        if computer_use:
            if self.focused not in self.focus_chain:
                self.screenshot_pane.focus()
        elif len(tools) == 1 and filter_box.has_focus and not filter_box.value:
            self.call_after_refresh(self.tool_panel.focus_form)
        elif self.focused not in self.focus_chain:  # none, or hidden meanwhile
            self.tool_list.focus_filter()

    # -- the sidebar's panes ---------------------------------------------------------------------

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None:
        """Add a tab to the sidebar (for panels such as tasks or state)."""
        await self.sidebar.add_pane(TabPane(title, widget, id=pane_id))

    def show_sidebar_pane(self, pane_id: str) -> None:
        """Show the sidebar, on the pane `pane_id` (the caller then focuses what it wants)."""
        sidebar = self.sidebar
        sidebar.display = True
        sidebar.active = pane_id

    # -- the status line -------------------------------------------------------------------------

    def refresh_status(self) -> None:
        session = self._session
        if session is None:  # the first frame: the session is made right after it
            return
        from fleet_tui.controller import ConnectionState
        from fleet_tui.envs.base import EndpointState

        env = session.env
        idle = session.state == ConnectionState.IDLE
        endpoints = env.endpoints() if env is not None and not idle else []
        self.query_one(StatusBar).update(
            status_text(
                session.target.describe(),
                env.info if env is not None else None,
                endpoints,
                session.episode,
                state=session.state,
                connected_at=session.connected_at,
                heartbeat=session.heartbeat_state,
                notes=[note() for note in self._status_notes],
                listed=Counter(tool.endpoint for tool in session.tools),
            )
        )
        if session.state == ConnectionState.CONNECTED:
            self.notify_new_warnings()
        down = [e for e in endpoints if e.state == EndpointState.DOWN]
        if session.state == ConnectionState.CONNECTED and down and not self.banner.shown:
            names = "; ".join(f"{e.url}: {e.error or 'no connection'}" for e in down)
            sessions = all(e.transport == "websocket" for e in down)
            what = "OpenEnv session down" if sessions else "MCP endpoint down"
            self.banner.show(f"{what}: {names}", action="reconnect", label="Reconnect")

    def notify_new_warnings(self) -> None:
        """Show each of the env's warnings once (a failed heartbeat, a tool-name clash, ...)."""
        if self._session is None:  # none before the session is made
            return
        for warning in self._session.new_warnings():
            self.notify(one_line(warning, 300), severity="warning", markup=False, timeout=8)
