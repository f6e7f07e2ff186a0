"""The sidebar's actions: show the tools, the history, the servers' log or the protocol log,
hide the sidebar,
act on a history entry (show its result, run it again, load its arguments into the form), and
ask the servers for the log level chosen in the log pane."""

from __future__ import annotations

from fleet_tui.controller import CallStatus
from fleet_tui.text import describe_error, one_line
from fleet_tui.ui.app_part import AppPart
from fleet_tui.ui.widgets.history import HistoryTable
from fleet_tui.ui.widgets.protocol_log import ProtocolPane
from fleet_tui.ui.widgets.server_log import ServerLogPane


class SidebarActions(AppPart):
    """The Tools and History tabs and what the history's keys ask for."""

    async def on_history_table_action(self, event: HistoryTable.Action) -> None:
        entry = event.entry
        if event.action == "show":
            if entry.status != CallStatus.RUNNING:
                await self.show_result(entry)
        elif event.action == "rerun":
            if entry.is_call:
                self.start_call(entry.tool, dict(entry.arguments))
        elif event.action == "load_args" and entry.is_call:
            await self.show_tool(entry.tool, entry.arguments)
            self.action_show_tools()
            self.notify(f"Arguments of call #{entry.number} loaded into the form.")

    def action_show_tools(self) -> None:
        self.show_sidebar_pane("pane-tools")
        self.tool_list.focus_filter()  # focus left in another pane would switch the tab back

    def action_show_history(self) -> None:
        self.show_sidebar_pane("pane-history")
        # at once, not on the app's next turn: a key typed right after f3 (f1) acts on it
        self.screen.set_focus(self.history)

    def action_show_log(self) -> None:
        self.show_sidebar_pane("pane-log")
        self.query_one(ServerLogPane).focus_filter()

    def action_show_protocol(self) -> None:
        self.show_sidebar_pane("pane-protocol")
        pane = self.query_one(ProtocolPane)
        pane.focus_filter()
        self.call_after_refresh(pane.refresh_rows, True)

    def on_server_log_pane_level_chosen(self, event: ServerLogPane.LevelChosen) -> None:
        self.run_worker(self._ask_log_level(event.level), group="log-level", exclusive=True)

    async def _ask_log_level(self, level: str) -> None:
        try:
            problems = await self.controller.set_log_level(level)
        except Exception as error:
            problems = [describe_error(error)]
        if problems:
            self.notify(
                f"logging/setLevel {level}: " + one_line("; ".join(problems), 300),
                severity="warning",
                markup=False,
            )

    def action_toggle_sidebar(self) -> None:
        sidebar = self.query_one("#sidebar")
        sidebar.display = not sidebar.display

    def action_focus_filter(self) -> None:
        self.action_show_tools()
        self.tool_list.focus_filter()

    async def open_tool(self, name: str) -> None:
        """Show the tool list with `name` selected (the palette's "Call tool …")."""
        self.action_show_tools()
        self.tool_list.select(name)
