"""The base of the app's remaining mixins (calling tools and showing results, the Resources
and Prompts panes) that `FleetTuiApp` is made of.

A mixin uses the app only through what is named here, so none imports the App class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App
    from textual.widget import Widget

    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.ui.result_format import ResultPlan
    from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
    from fleet_tui.ui.widgets.tool_panel import ToolPanel

    _Base = App[int]
else:
    _Base = object


class AppPart(_Base):
    """What the app's mixins share: the session and the app's methods they call."""

    if TYPE_CHECKING:
        controller: SessionController
        confirmed_destructive: set[str]
        image_folder: Path | None

        @property
        def tool_panel(self) -> ToolPanel: ...
        @property
        def screenshot_pane(self) -> ScreenshotPane: ...
        def refresh_status(self) -> None: ...
        def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None: ...
        async def show_plan(self, plan: ResultPlan) -> None: ...
        async def show_result(self, entry: CallRecord) -> None: ...
        async def run_call(self, record: CallRecord) -> None: ...
        async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...
        def show_sidebar_pane(self, pane_id: str) -> None: ...
        @property
        def call_running(self) -> bool: ...
