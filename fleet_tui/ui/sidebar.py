"""The sidebar's actions: show the tools, the history, the servers' log or the protocol log,
hide the sidebar, act on a history entry (show its result, run it again, load its arguments
into the form), and ask the servers for the log level chosen in the log pane.

A part of the app with a narrow port: `SidebarActions` reaches the app only through
`SidebarHost` and the screen holding the sidebar through `SidebarScreen`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.widget import Widget

from fleet_tui.text import describe_error, one_line
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.widgets.tool_list import ToolList

if TYPE_CHECKING:  # the session's models and the panes mounted after the first frame load then
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.ui.widgets.history import HistoryTable
    from fleet_tui.ui.widgets.protocol_log import ProtocolPane
    from fleet_tui.ui.widgets.server_log import ServerLogPane


class SidebarHost(AppServices, Protocol):
    """What the sidebar's actions need of the app: the session, and showing a record's result,
    calling a tool again and showing its form."""

    @property
    def controller(self) -> SessionController: ...

    def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None: ...

    async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None: ...

    async def show_result(self, entry: CallRecord) -> None: ...


class SidebarScreen(Protocol):
    """What the sidebar's actions need of the screen holding the sidebar."""

    server_log_pane: ServerLogPane
    protocol_pane: ProtocolPane

    @property
    def sidebar(self) -> Widget: ...

    @property
    def tool_list(self) -> ToolList: ...

    @property
    def history(self) -> HistoryTable: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True) -> None: ...


class SidebarActions:
    """The Tools, History, Log and Protocol tabs and what the history's keys ask for."""

    def __init__(self, host: SidebarHost, screen: SidebarScreen) -> None:
        self._host = host
        self._screen = screen

    async def act_on_history(self, event: HistoryTable.Action) -> None:
        """A history entry's key: show its result, run it again or load its arguments."""
        from fleet_tui.controller import CallStatus

        entry, host = event.entry, self._host
        if event.action == "show":
            if entry.status != CallStatus.RUNNING:
                await host.show_result(entry)
        elif event.action == "rerun":
            if entry.is_call:
                host.start_call(entry.tool, dict(entry.arguments))
        elif event.action == "load_args" and entry.is_call:
            await host.show_tool(entry.tool, entry.arguments)
            self.show_tools()
            host.notify(f"Arguments of call #{entry.number} loaded into the form.")

    def show_tools(self) -> None:
        self._screen.show_sidebar_pane("pane-tools")
        # focus left in another pane would switch the tab back
        self._screen.tool_list.focus_filter()

    def show_history(self) -> None:
        self._screen.show_sidebar_pane("pane-history")
        self._screen.history.write_held_rows()  # its rows are there for what comes next
        # at once, not on the app's next turn: a key typed right after f3 (f1) acts on it
        self._screen.set_focus(self._screen.history)

    def show_log(self) -> None:
        self._screen.show_sidebar_pane("pane-log")
        self._screen.server_log_pane.focus_filter()

    def show_protocol(self) -> None:
        self._screen.show_sidebar_pane("pane-protocol")
        pane = self._screen.protocol_pane
        pane.focus_filter()
        self._host.call_after_refresh(pane.refresh_rows, True)

    def ask_log_level(self, level: str) -> None:
        """Ask the servers to send their log messages from `level` up (in a worker)."""
        self._host.run_worker(self._ask_log_level(level), group="log-level", exclusive=True)

    async def _ask_log_level(self, level: str) -> None:
        try:
            problems = await self._host.controller.set_log_level(level)
        except Exception as error:
            problems = [describe_error(error)]
        if problems:
            self._host.notify(
                f"logging/setLevel {level}: " + one_line("; ".join(problems), 300),
                severity="warning",
                markup=False,
            )

    def toggle(self) -> None:
        sidebar = self._screen.sidebar
        sidebar.display = not sidebar.display

    def open_tool(self, name: str) -> None:
        """Show the tool list with `name` selected (the palette's "Call tool …")."""
        self.show_tools()
        self._screen.tool_list.select(name)
