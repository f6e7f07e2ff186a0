"""The Textual app: pick a tool, fill its form, call it, read the result; drive computer-use envs.

The session (target, env, tools, call records, episode) is `app.controller`, a
`SessionController`: the app shows its events and runs its slow steps in workers. One
connection worker (connect, reconnect), one call worker at a time (group "call", cancelled by
esc), and a shutdown worker that closes what fleet-tui created before the app exits.
`ui/run.py` closes whatever is still open after the app ended another way (SIGTERM,
SIGHUP, a crash).

Extension points: add a sidebar pane in `compose` (the `#sidebar` TabbedContent) or at run
time with `add_sidebar_pane`; add keys and palette entries in `keymap.py` (palette entries run
`action_<name>` on the app); subscribe to `env_ready`, `call_finished` and `env_reset`
(Textual signals) to follow what happens.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.signal import Signal
from textual.widget import Widget
from textual.widgets import Footer, TabbedContent, TabPane
from textual.worker import Worker

from fleet_tui.controller import (
    CallAdded,
    CallFinished,
    CallRecord,
    CallStatus,
    ConnectionState,
    EnvClosed,
    Progress,
    SessionController,
    SessionEvent,
    describe,
)
from fleet_tui.envs.base import EndpointState, Env, EnvInfo, ResetResult, Tool
from fleet_tui.envs.capabilities import Heartbeating, unwrapped
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import Target
from fleet_tui.tasks.start import COMPUTER_TOOL
from fleet_tui.text import clean, name_line, one_line
from fleet_tui.ui.call_command import call_command, target_options
from fleet_tui.ui.commands import FleetCommands, PaletteEntry, palette_entries
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.result_format import ResultPlan, plan_message, plan_result
from fleet_tui.ui.screens.help import HelpScreen
from fleet_tui.ui.screens.reset_screen import ResetScreen
from fleet_tui.ui.widgets.banner import Banner
from fleet_tui.ui.widgets.history import HistoryTable
from fleet_tui.ui.widgets.progress_panel import ProgressPanel
from fleet_tui.ui.widgets.result_view import ResultView
from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
from fleet_tui.ui.widgets.status_bar import StatusBar, status_text
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_panel import ToolPanel


class ProgressLine(Message):
    """One line of connection progress (posted from any thread)."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line


class FleetTuiApp(App[int]):
    """fleet-tui's interactive app on one target."""

    CSS_PATH = "app.tcss"
    TITLE = "fleet-tui"
    BINDINGS = bindings_for("global")
    COMMANDS = App.COMMANDS | {FleetCommands}

    def __init__(
        self,
        target: Target,
        *,
        env_factory: Callable[[Target], Env] = make_env,
        keep_note: list[str] | None = None,
        image_folder: Path | None = None,
    ) -> None:
        super().__init__()
        self.controller = SessionController(target, env_factory)
        """The session: target, env, tools, call records, episode, connection state."""
        self.controller.subscribe(self._session_event)
        self.shutting_down = False
        self.keep_note = keep_note if keep_note is not None else []
        """Filled on exit with lines telling how to attach again to a kept instance."""
        self.image_folder = image_folder
        """Where images too large to show are saved (None: a temporary folder)."""
        self.env_ready: Signal[list[Tool]] = Signal(self, "env-ready")
        self.call_finished: Signal[CallRecord] = Signal(self, "call-finished")
        self.env_reset: Signal[ResetResult] = Signal(self, "env-reset")
        self.extensions: list[Callable[[FleetTuiApp], Any]] = []
        """Called with the app once it is mounted (awaited if async): adds panes and actions."""
        self.extension_actions: dict[str, Callable[[], Any]] = {}
        """Actions an extension offers; keys run them through `action_extension(name)`."""

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield Banner(id="banner")
        with Horizontal(id="body"):
            # Sidebar panes: add a TabPane here (or call add_sidebar_pane at run time).
            with TabbedContent(id="sidebar"):
                with TabPane("Tools", id="pane-tools"):
                    yield ToolList(id="tools")
                with TabPane("History", id="pane-history"):
                    yield HistoryTable(id="history")
            with Vertical(id="work"):
                yield ToolPanel(id="tool-panel")
                yield ResultView(id="result")
            yield ScreenshotPane(id="screenshot-pane")
        yield ProgressPanel(id="progress")
        yield Footer()

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None:
        """Add a tab to the sidebar (for panels such as tasks or state)."""
        await self.query_one("#sidebar", TabbedContent).add_pane(TabPane(title, widget, id=pane_id))

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

    def on_mount(self) -> None:
        self.screenshot_pane.display = False
        # The status bar owns the clock's timer, so it stops ticking when the bar is removed.
        self.query_one(StatusBar).set_interval(1.0, self.refresh_status)
        self.refresh_status()
        self.start_connect()
        for extension in self.extensions:
            self.call_later(extension, self)

    def action_extension(self, name: str) -> None:
        """Run an action an extension registered (tasks, state, sessions)."""
        handler = self.extension_actions.get(name)
        if handler is None:
            self.notify(
                "Not available here (task actions need --tasks FILE or --verifier FILE).",
                severity="warning",
            )
            return
        handler()

    # -- status ----------------------------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast. Its text is cleaned here, once for all: env text (an error, a name, a
        command) reaches toasts from many places."""
        super().notify(
            clean(message), title=clean(title), severity=severity, timeout=timeout, markup=markup
        )

    def refresh_status(self) -> None:
        session = self.controller
        env = session.env
        idle = session.state == ConnectionState.IDLE
        endpoints = env.endpoints() if env is not None and not idle else []
        inner = unwrapped(env)
        self.query_one(StatusBar).update(
            status_text(
                session.target.describe(),
                env.info if env is not None else None,
                endpoints,
                session.episode,
                state=session.state,
                connected_at=session.connected_at,
                heartbeat=inner.heartbeat_state if isinstance(inner, Heartbeating) else None,
            )
        )
        if session.state == ConnectionState.CONNECTED:
            self._notify_new_warnings()
        down = [e for e in endpoints if e.state == EndpointState.DOWN]
        if session.state == ConnectionState.CONNECTED and down and not self.banner.shown:
            names = "; ".join(f"{e.url}: {e.error or 'no connection'}" for e in down)
            self.banner.show(f"MCP endpoint down: {names}", action="reconnect", label="Reconnect")

    def _notify_new_warnings(self) -> None:
        """Show each of the env's warnings once (a failed heartbeat, a tool-name clash, ...)."""
        for warning in self.controller.new_warnings():
            self.notify(one_line(warning, 300), severity="warning", markup=False, timeout=8)

    # -- the session's events -------------------------------------------------------------------

    def _session_event(self, event: SessionEvent) -> None:
        """Show what the session did (events come in the order they happen)."""
        match event:
            case Progress(line):
                self.post_message(ProgressLine(line))  # may come from another thread
            case CallAdded(record):
                self.history.add_entry(record)
                if record.status == CallStatus.RUNNING:
                    name = name_line(record.tool, 40)
                    self.tool_panel.set_state(f"calling {name}… (esc cancels)")
            case CallFinished(record):
                self.history.update_entry(record)
                message = f": {one_line(record.message, 80)}" if record.message else ""
                self.tool_panel.set_state(f"{record.status}{message}")
                self.call_finished.publish(record)
                self.refresh_status()
            case EnvClosed(info, failure):
                if failure is not None:
                    self.notify(f"Closing failed: {failure}", severity="error", markup=False)
                self._remember_kept(info)

    # -- connecting ------------------------------------------------------------------------------

    def on_progress_line(self, message: ProgressLine) -> None:
        self.query_one(ProgressPanel).add_line(message.line)

    def start_connect(self, reopen: bool = False) -> None:
        """Connect (`reopen`: reopen the connected env's connections) in a worker."""
        self.controller.start_connecting(reopen)
        self.banner.hide()
        reopening = self.controller.state == ConnectionState.RECONNECTING
        verb = "Reconnecting to" if reopening else "Connecting to"
        self.query_one(ProgressPanel).start(f"{verb} {self.controller.target.describe()}")
        self.run_worker(self._connect(), group="connection", exclusive=True, exit_on_error=False)

    async def _connect(self) -> None:
        try:
            tools = await self.controller.connect()
        except asyncio.CancelledError:
            self._connection_failed("Connecting was cancelled; nothing was left running.")
            raise
        except Exception as error:
            self._connection_failed(f"Could not connect: {describe(error)}")
            return
        self.query_one(ProgressPanel).stop()
        await self._tools_ready(tools)

    def _connection_failed(self, message: str) -> None:
        self.query_one(ProgressPanel).stop()
        self.banner.show(message, action="reconnect", label="Connect again")
        self.refresh_status()

    async def _tools_ready(self, tools: list[Tool]) -> None:
        computer_use = self.controller.computer_use
        self.tool_list.set_tools(tools)
        self._notify_new_warnings()
        self.screenshot_pane.display = computer_use
        self.query_one("#body").set_class(computer_use, "-computer")
        self.query_one("#sidebar").display = not computer_use
        self.refresh_status()
        if computer_use:
            await self.show_tool(COMPUTER_TOOL, {"action": "screenshot"})
            self.start_call(COMPUTER_TOOL, {"action": "screenshot"})
        elif tools and self.tool_panel.tool is None:
            await self.show_tool(tools[0].name)
        if len(tools) == 1 and not computer_use:
            self.call_after_refresh(self.tool_panel.focus_form)  # nothing to pick: type at once
        elif not computer_use:
            self.tool_list.focus_filter()
        self.env_ready.publish(tools)

    def _remember_kept(self, info: EnvInfo) -> None:
        if not (info.keep and info.instance_id):
            return
        target = self.controller.target
        self.keep_note[:] = [f"Instance {info.instance_id} is still running (--keep)."]
        if target.local:
            self.keep_note.append(
                "The embedded local host stops with fleet-tui, and the instance with it: for "
                "instances that outlive the app, run `fleet-tui local serve` and use --base-url "
                "(with FLEET_API_KEY set to the key it prints)."
            )
        else:
            command = " ".join(["fleet-tui", *target_options(target, info.instance_id)])
            self.keep_note.append(f"Attach again with: {command}")

    def action_reconnect(self) -> None:
        if self.shutting_down:
            return
        self.workers.cancel_group(self, "call")
        self.start_connect(reopen=True)

    @on(ProgressPanel.Cancelled)
    def _cancel_connect(self) -> None:
        self.workers.cancel_group(self, "connection")

    # -- tools and the form ----------------------------------------------------------------------

    async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None:
        """Select `name` in the list and show its form (filled with `arguments`)."""
        tool = self.controller.tool_named(name)
        if tool is None:
            self.notify(f"No tool named {name_line(name, 80)}", severity="error", markup=False)
            return
        self.tool_list.highlight(name)
        await self.tool_panel.show_tool(tool, arguments)

    @on(ToolList.Chosen)
    async def _tool_chosen(self, event: ToolList.Chosen) -> None:
        if self.tool_panel.tool is None or self.tool_panel.tool.name != event.tool.name:
            await self.tool_panel.show_tool(event.tool)
        self.call_after_refresh(self.tool_panel.focus_form)

    @on(ToolPanel.CallRequested)
    def _call_requested(self) -> None:
        self.action_call()

    def action_call(self) -> None:
        panel = self.tool_panel
        if panel.tool is None:
            self.notify("Pick a tool first.", severity="warning")
            return
        try:
            arguments = panel.arguments()
        except ValueError as error:
            self.notify(one_line(str(error), 300), severity="error", markup=False)
            return
        problems = panel.problems()
        if problems:
            self.notify(
                "Sending anyway; the arguments break the schema:\n" + "\n".join(problems[:5]),
                severity="warning",
                markup=False,
            )
        self.start_call(panel.tool.name, arguments)

    # -- calls -----------------------------------------------------------------------------------

    @property
    def call_running(self) -> bool:
        return any(not w.is_finished for w in self.workers if w.group == "call")

    def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None:
        """Call a tool in a worker; returns its record (None if not started).

        Computer actions queued meanwhile (`pending_actions`) run after it in the same worker.
        """
        if not self.controller.connected:
            self.notify("Not connected.", severity="error")
            return None
        if self.call_running:
            self.notify("A call is running: esc cancels it.", severity="warning")
            return None
        record = self.controller.add_record(name, arguments)
        self.run_worker(self._calls(record), group="call", exit_on_error=False)
        return record

    async def _calls(self, record: CallRecord) -> None:
        await self._call(record)
        while (queued := self.controller.next_pending()) is not None:
            await self._call(queued)

    async def _call(self, record: CallRecord) -> None:
        result = await self.controller.call(record)
        if result is None:
            await self.show_plan(plan_message(record.message, is_error=True, title=_title(record)))
            self.refresh_status()
            return
        await self.show_result(record)
        shots = result.images()
        if shots and self.controller.computer_use:
            self.screenshot_pane.show(shots[-1].data, shots[-1].mime_type)

    async def show_result(self, entry: CallRecord) -> None:
        """Show an entry's result (formatted in a thread: big results do not block the UI)."""
        if entry.result is None:
            await self.show_plan(
                plan_message(
                    entry.message or entry.status,
                    is_error=entry.status in (CallStatus.FAILED, CallStatus.ERROR),
                    title=_title(entry),
                )
            )
            return
        try:
            plan = await asyncio.to_thread(
                plan_result, entry.result, self.controller.tool_named(entry.tool), _title(entry)
            )
        except Exception as error:  # a result we cannot format must not take the app down
            plan = plan_message(
                f"Cannot display this result: {describe(error)}", is_error=True, title=_title(entry)
            )
        await self.show_plan(plan)

    async def show_plan(self, plan: ResultPlan) -> None:
        try:
            await self.result_view.show(plan)
        except Exception as error:
            await self.result_view.show(
                plan_message(
                    f"Cannot display this result: {describe(error)}",
                    is_error=True,
                    title=plan.title,
                )
            )

    def action_cancel_call(self) -> None:
        if self.query_one(ProgressPanel).shown:
            self.workers.cancel_group(self, "connection")
        elif self.call_running:
            self.workers.cancel_group(self, "call")
            self.notify("Call cancelled.")
        elif self.screenshot_pane.typing:
            self.screenshot_pane.typing = False

    # -- computer use ----------------------------------------------------------------------------

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Actions queued just as the call worker was finishing start a new one."""
        worker = event.worker
        if (
            worker.group == "call"
            and worker.is_finished
            and self.controller.pending_actions
            and not self.call_running
            and self.controller.state == ConnectionState.CONNECTED
        ):
            self.start_call(COMPUTER_TOOL, self.controller.pending_actions.pop(0))

    @on(ScreenshotPane.Act)
    async def _screen_action(self, event: ScreenshotPane.Act) -> None:
        if not event.send:
            await self.show_tool(COMPUTER_TOOL, event.arguments)
            self.notify(f"Form filled: {_args_text(event.arguments)} (ctrl+s sends it)")
            return
        if self.call_running:
            self.controller.pending_actions.append(event.arguments)
        else:
            self.start_call(COMPUTER_TOOL, event.arguments)

    def action_screenshot(self) -> None:
        if not self.controller.computer_use:
            self.notify("This env has no computer tool.", severity="warning")
            return
        self.start_call(COMPUTER_TOOL, {"action": "screenshot"})

    def action_toggle_live(self) -> None:
        pane = self.screenshot_pane
        pane.live = not pane.live
        self.notify("Live mode: clicks act at once." if pane.live else "Clicks fill the form.")

    def action_toggle_typing(self) -> None:
        if not self.controller.computer_use:
            self.notify("This env has no computer tool.", severity="warning")
            return
        pane = self.screenshot_pane
        pane.typing = not pane.typing
        if pane.typing:
            self.notify("Typing mode: keys go to the env (esc leaves).")

    # -- history ---------------------------------------------------------------------------------

    @on(HistoryTable.Action)
    async def _history_action(self, event: HistoryTable.Action) -> None:
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

    # -- reset -----------------------------------------------------------------------------------

    def action_reset_env(self) -> None:
        if not self.controller.connected:
            self.notify("Not connected.", severity="error")
            return

        def chosen(answer: tuple[bool, int | None] | None) -> None:
            if answer and answer[0]:
                self.start_reset(answer[1])

        self.push_screen(ResetScreen(), chosen)

    def start_reset(self, seed: int | None = None) -> None:
        """Reset the env in a worker (a new episode), then show what it said."""
        self.run_worker(self._reset(seed), group="call", exit_on_error=False)

    async def _reset(self, seed: int | None) -> None:
        record, outcome = await self.controller.reset(seed)
        if outcome is None:
            self.notify(f"Reset failed: {record.message}", severity="error", markup=False)
            return
        await self.show_result(record)
        self.notify(
            one_line(record.message, 200),
            markup=False,
            severity="information" if outcome.success else "error",
        )
        self.env_reset.publish(outcome)
        if self.controller.computer_use:
            await self._call(self.controller.add_record(COMPUTER_TOOL, {"action": "screenshot"}))

    # -- help, palette, copy ---------------------------------------------------------------------

    def focused_area(self) -> str:
        node = self.focused
        while node is not None:
            area = getattr(node, "HELP_AREA", None)
            if area:
                return area
            node = node.parent
        return getattr(self.screen, "HELP_AREA", "global")

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.focused_area()))

    def palette_entries(self) -> list[PaletteEntry]:
        return palette_entries(self, self.controller.tools, self.open_tool)

    async def open_tool(self, name: str) -> None:
        """Show the tool list with `name` selected (the palette's "Call tool …")."""
        self.action_show_tools()
        self.tool_list.select(name)

    def current_command(self) -> str | None:
        panel = self.tool_panel
        if panel.tool is None:
            return None
        arguments = panel.arguments()
        env = self.controller.env
        info = env.info if env is not None else None
        keep = info is not None and (info.keep or not info.created_here)
        instance = info.instance_id if info is not None and keep else None
        return call_command(self.controller.target, panel.tool.name, arguments, instance)

    def action_copy_command(self) -> None:
        try:
            command = self.current_command()
        except ValueError as error:
            self.notify(one_line(str(error), 300), severity="error", markup=False)
            return
        if command is None:
            self.notify("Pick a tool first.", severity="warning")
            return
        self.copy_to_clipboard(command)
        self.notify(command, title="Copied to the clipboard", markup=False, timeout=8)

    # -- quitting --------------------------------------------------------------------------------

    async def action_quit(self) -> None:
        if self.shutting_down:
            return
        self.shutting_down = True
        self.query_one(ProgressPanel).start("Closing what fleet-tui created…")
        self.workers.cancel_group(self, "call")
        self.workers.cancel_group(self, "connection")
        self.run_worker(self._close_then_exit(), group="shutdown")

    async def _close_then_exit(self) -> None:
        """(Not `_shutdown`: that name is Textual's own exit sequence.)"""
        with contextlib.suppress(Exception):
            await self.controller.close_env()
        self.exit(0)


def _title(entry: CallRecord) -> str:
    return f"#{entry.number} {name_line(entry.tool, 40)} · {entry.status}" + (
        f" · {entry.latency_s * 1000:.0f} ms" if entry.latency_s is not None else ""
    )


def _args_text(arguments: dict[str, Any]) -> str:
    return one_line(", ".join(f"{k}={v}" for k, v in arguments.items()), 80)
