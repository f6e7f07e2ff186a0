"""Calling tools from the app: one call worker at a time (group "call", esc cancels it), the
computer actions queued meanwhile after it, and the result shown in the result view (with a
dialog for the page to open when the server refused the call until one is visited).

A part of the app with a narrow port: `Calls` reaches the app only through `CallsHost`. Other
parts and the extensions ask it by posting `ShowResult`, `StartCall` or `ShowTool` to the app,
which hands them over (`Calls.asked`); the app's `start_call`, `run_call`, `show_call` and
`show_tool` stay for callers that need the record, or the call made or the form shown before
they go on."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from textual.message import Message
from textual.screen import Screen
from textual.worker_manager import WorkerManager

from fleet_tui.envs.call_clock import call_limit
from fleet_tui.envs.pages_to_visit import pages_of
from fleet_tui.envs.tool_hints import is_destructive
from fleet_tui.text import describe_error, name_line, one_line, visible
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.paints_held import PaintHolder, paints_held
from fleet_tui.ui.screens.confirm_screen import ConfirmScreen
from fleet_tui.ui.screens.visit_screen import VisitScreen
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_panel import ToolPanel

if TYPE_CHECKING:  # the session's models, the result's view and its formatting load after the
    # first frame
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import ToolResult
    from fleet_tui.ui.result_format import ResultPlan
    from fleet_tui.ui.widgets.result_view import ResultView
    from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane

INLINE_PLAN_BYTES = 4 * 1024
"""A result up to this size is formatted on the event loop (about half a millisecond of JSON
highlighting): handing it to a thread and back costs more, several ms on a loaded machine."""

PAINTS_HELD_S = 0.05
"""While a call is out, the screen is painted after at most this long: a fast call's "running"
state and its result reach the terminal in one frame, and no frame is painted meanwhile (a
paint takes the event loop for milliseconds, the time of a small call's reply)."""


class ShowResult(Message):
    """Show `record`'s result in the result view."""

    def __init__(self, record: CallRecord) -> None:
        super().__init__()
        self.record = record


class StartCall(Message):
    """Call `tool` with `arguments` in the call worker (said why not, when it cannot)."""

    def __init__(self, tool: str, arguments: dict[str, Any]) -> None:
        super().__init__()
        self.tool = tool
        self.arguments = arguments


class ShowTool(Message):
    """Select `tool` in the list and show its form, filled with `arguments`."""

    def __init__(self, tool: str, arguments: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.tool = tool
        self.arguments = arguments


class CallsHost(AppServices, PaintHolder, Protocol):
    """What calling tools needs of the app: the session, the form, the result view (absent
    while the app closes), the screenshot pane, a dialog, its workers and its status line."""

    @property
    def controller(self) -> SessionController: ...

    confirmed_destructive: set[str]

    @property
    def workers(self) -> WorkerManager: ...

    @property
    def tool_list(self) -> ToolList: ...

    @property
    def tool_panel(self) -> ToolPanel: ...

    @property
    def screenshot_pane(self) -> ScreenshotPane: ...

    def query_one_optional(self, selector: type[ResultView]) -> ResultView | None: ...

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> Any: ...

    def refresh_status(self) -> None: ...


class Calls:
    """Send the form's call, run calls in a worker, show their results."""

    def __init__(self, host: CallsHost) -> None:
        self._host = host

    async def asked(self, event: Message) -> None:
        """Do what a `ShowResult`, `StartCall` or `ShowTool` posted to the app asks."""
        match event:
            case ShowResult(record=record):
                await self.show_result(record)
            case StartCall(tool=tool, arguments=arguments):
                self.start(tool, arguments)
            case ShowTool(tool=tool, arguments=arguments):
                await self.show_tool(tool, arguments)

    async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None:
        """Select `name` in the list and show its form (filled with `arguments`)."""
        tool = self._host.controller.tool_named(name)
        if tool is None:
            self._host.notify(
                f"No tool named {name_line(name, 80)}", severity="error", markup=False
            )
            return
        self._host.tool_list.highlight(name)
        await self._host.tool_panel.show_tool(tool, arguments)

    def send_form(self) -> None:
        """Call the form's tool; while an agent's held call is in the form, release that one
        with the form's arguments instead (never a second call)."""
        panel = self._host.tool_panel
        if panel.release_held is not None:
            panel.release_held()
            return
        if panel.tool is None:
            self._host.notify("Pick a tool first.", severity="warning")
            return
        try:
            arguments = panel.arguments()
            panel.call_timeout()
        except ValueError as error:
            self._host.notify(one_line(str(error), 300), severity="error", markup=False)
            return
        problems = panel.problems()
        if problems:
            self._host.notify(
                "Sending anyway; the arguments break the schema:\n" + "\n".join(problems[:5]),
                severity="warning",
                markup=False,
            )
        self.start(panel.tool.name, arguments)

    def _asks_first(self, name: str) -> bool:
        """A destructive tool's first call of the session is asked about (the agent's calls
        through the proxy never are: they are not the person's)."""
        tool = self._host.controller.tool_named(name)
        return (
            tool is not None
            and is_destructive(tool)
            and name not in self._host.confirmed_destructive
        )

    @property
    def running(self) -> bool:
        """Whether a worker of group "call" runs (a call, a reset, a replayed step)."""
        return any(not w.is_finished for w in self._host.workers if w.group == "call")

    def start(self, name: str, arguments: dict[str, Any]) -> CallRecord | None:
        """Call a tool in a worker; returns its record (None if not started).

        Computer actions queued meanwhile (`pending_actions`) run after it in the same worker.
        """
        if not self._host.controller.connected:
            self._host.notify("Not connected.", severity="error")
            return None
        if self.running:
            self._host.notify("A call is running: esc cancels it.", severity="warning")
            return None
        if self._asks_first(name):
            question = (
                f"{visible(name)} is marked destructive by its server. Call it? "
                "(asked once for this tool in this session)"
            )

            def answered(yes: bool | None) -> None:
                if yes:
                    self._host.confirmed_destructive.add(name)
                    self.start(name, arguments)

            self._host.push_screen(ConfirmScreen(question, "Call it"), answered)
            return None
        record = self._host.controller.add_record(name, arguments)
        self._host.run_worker(self._calls(record), group="call", exit_on_error=False)
        return record

    async def _calls(self, record: CallRecord) -> None:
        await self.run_call(record)
        await self.run_queued()

    async def run_queued(self) -> None:
        """Make the computer actions queued meanwhile (the screenshot after an action)."""
        while (queued := self._host.controller.next_pending()) is not None:
            await self.run_call(queued)

    async def run_call(self, record: CallRecord) -> None:
        """Make the call of `record`, within the panel's time limit (the default when the
        field holds none), and show its result (and screenshot)."""
        try:
            limit = self._host.tool_panel.call_timeout()
        except ValueError:
            limit = self._host.tool_panel.first_timeout
        with paints_held(self._host, PAINTS_HELD_S):
            with call_limit(limit):
                result = await self._host.controller.call(record)
            await self.show_call(record, result)

    async def show_call(self, record: CallRecord, result: ToolResult | None) -> None:
        """Show a finished call's result (or why it has none), and its screenshot."""
        from fleet_tui.ui.result_format import plan_message

        if result is None:
            await self.show_plan(plan_message(record.message, is_error=True, title=_title(record)))
            self._host.refresh_status()
            return
        await self.show_result(record)
        if pages := pages_of(result):
            self._host.push_screen(VisitScreen(record.tool, pages))
        shots = result.images()
        if shots and self._host.controller.computer_use:
            self._host.screenshot_pane.show(shots[-1].data, shots[-1].mime_type)

    async def show_result(self, entry: CallRecord) -> None:
        """Show an entry's result (formatted in a thread unless small: big results do not block
        the UI); a released one's is read back from the session file first."""
        from fleet_tui.controller import CallStatus
        from fleet_tui.ui.result_format import plan_message, plan_result

        result = entry.result
        if entry.released:
            try:
                result = await asyncio.to_thread(
                    self._host.controller.result_memory.read_back, entry
                )
            except Exception as error:  # ResultReleased, or a session file gone unreadable
                await self.show_plan(
                    plan_message(describe_error(error), is_error=False, title=_title(entry))
                )
                return
        if result is None:
            await self.show_plan(
                plan_message(
                    entry.message or entry.status,
                    is_error=entry.status in (CallStatus.FAILED, CallStatus.ERROR),
                    title=_title(entry),
                )
            )
            return
        tool = self._host.controller.tool_named(entry.tool)
        try:
            if 0 < result.size_bytes <= INLINE_PLAN_BYTES:
                plan = plan_result(result, tool, _title(entry))
            else:
                plan = await asyncio.to_thread(plan_result, result, tool, _title(entry))
        except Exception as error:  # a result we cannot format must not take the app down
            plan = plan_message(
                f"Cannot display this result: {describe_error(error)}",
                is_error=True,
                title=_title(entry),
            )
        await self.show_plan(plan)

    async def show_plan(self, plan: ResultPlan) -> None:
        from fleet_tui.ui.result_format import plan_message
        from fleet_tui.ui.widgets.result_view import ResultView

        view = self._host.query_one_optional(ResultView)
        if view is None:  # the app is closing: its screen's widgets are being taken down
            return
        try:
            await view.show(plan)
        except Exception as error:
            await view.show(
                plan_message(
                    f"Cannot display this result: {describe_error(error)}",
                    is_error=True,
                    title=plan.title,
                )
            )


def _title(entry: CallRecord) -> str:
    """`#3 echo · ok · 12 ms`; a reset's says it shows the observation the reset gave."""
    what = "Reset · observation" if entry.tool == "<reset>" else name_line(entry.tool, 40)
    return f"#{entry.number} {what} · {entry.status}" + (
        f" · {entry.latency_s * 1000:.0f} ms" if entry.latency_s is not None else ""
    )
