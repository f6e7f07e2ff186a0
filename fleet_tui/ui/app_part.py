"""The base of the app's parts: mixins with one job each (connecting, computer use, the sidebar,
reset, showing results, copying a call as a command) that `FleetTuiApp` is made of.

A part uses the app only through what is named here, so no part imports the App class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fleet_tui.ui.widgets.banner import Banner
from fleet_tui.ui.widgets.history import HistoryTable
from fleet_tui.ui.widgets.result_view import ResultView
from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_panel import ToolPanel

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App
    from textual.signal import Signal
    from textual.widget import Widget

    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import Tool
    from fleet_tui.ui.result_format import ResultPlan

    _Base = App[int]
else:
    _Base = object


class AppPart(_Base):
    """What the app's parts share: the session, the app's signals and its main widgets."""

    if TYPE_CHECKING:
        controller: SessionController
        shutting_down: bool
        confirmed_destructive: set[str]
        image_folder: Path | None
        keep_note: list[str]
        env_ready: Signal[list[Tool]]

        def refresh_status(self) -> None: ...
        def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None: ...
        async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None: ...
        async def show_plan(self, plan: ResultPlan) -> None: ...
        async def show_result(self, entry: CallRecord) -> None: ...
        async def run_call(self, record: CallRecord) -> None: ...
        async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...
        def show_sidebar_pane(self, pane_id: str) -> None: ...
        @property
        def call_running(self) -> bool: ...

    @property
    def tool_list(self) -> ToolList:
        return self.query_one(ToolList)

    @property
    def tool_panel(self) -> ToolPanel:
        return self.query_one(ToolPanel)

    @property
    def result_view(self) -> ResultView:
        return self.query_one(ResultView)

    @property
    def history(self) -> HistoryTable:
        return self.query_one(HistoryTable)

    @property
    def screenshot_pane(self) -> ScreenshotPane:
        return self.query_one(ScreenshotPane)

    @property
    def banner(self) -> Banner:
        return self.query_one(Banner)
