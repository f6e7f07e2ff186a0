"""The sidebar's actions: show the tools or the history, hide the sidebar, and act on a
history entry (show its result, run it again, load its arguments into the form)."""

from __future__ import annotations

from textual.widgets import TabbedContent

from fleet_tui.controller import CallStatus
from fleet_tui.ui.app_part import AppPart
from fleet_tui.ui.widgets.history import HistoryTable


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
        self._show_sidebar("pane-tools")
        self.tool_list.focus_filter()  # focus left in another pane would switch the tab back

    def action_show_history(self) -> None:
        self._show_sidebar("pane-history")
        # at once, not on the app's next turn: a key typed right after f3 (f1) acts on it
        self.screen.set_focus(self.history)

    def _show_sidebar(self, pane: str) -> None:
        sidebar = self.query_one("#sidebar", TabbedContent)
        sidebar.display = True
        sidebar.active = pane

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
