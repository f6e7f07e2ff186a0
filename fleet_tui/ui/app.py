"""The Textual app: pick a tool, fill its form, call it, read the result; drive computer-use envs.

The session (target, env, tools, call records, episode) is `app.controller`, a
`SessionController`, made once the first frame is drawn (its models load then; the target and
the recorder may be given as what makes them): the app shows its events and runs its slow
steps in workers. One
connection worker (connect, reconnect), one call worker at a time (group "call", cancelled by
esc), and a shutdown worker that closes what fleet-tui created before the app exits.
`ui/run.py` closes whatever is still open after the app ended another way (SIGTERM,
SIGHUP, a crash).

The layout is the main screen's (`screens/main_screen.py`: the status line, the sidebar's
panes, its width and the zoom), the app's default screen. The app is made of parts with one
job each, beside it in ui/, each an object reaching the app through a narrow port: calls and
their results (`calls.py`), the Resources and Prompts panes (`catalog.py`), connecting
(`connection.py`), the sidebar's tabs and history (`sidebar.py`), copy-as-command
(`copy_command.py`), reset (`reset.py`), computer use (`computer_use.py`), servers'
requests (`server_dialogs.py`) and the session's events (`session_view.py`, made with the
session). This module makes the session and keeps the app's signals, quitting, help and the
palette.

Extension points: add a sidebar pane in the main screen's `compose` (the `#sidebar`
TabbedContent) or at run time with `add_sidebar_pane`; add keys and palette entries in
`keymap.py` (palette entries run `action_<name>` on the app); subscribe to `env_ready`,
`call_finished` and `env_reset` (Textual signals) to follow what happens.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import App
from textual.dom import DOMNode
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.signal import Signal
from textual.widget import Widget
from textual.worker import Worker

from fleet_tui.collector import loading_modules
from fleet_tui.envs.call_clock import DEFAULT_CALL_TIMEOUT_S
from fleet_tui.text import clean
from fleet_tui.ui.calls import Calls, ShowResult, ShowTool, StartCall
from fleet_tui.ui.catalog import Catalog
from fleet_tui.ui.clipboard import copy_beyond_the_terminal
from fleet_tui.ui.commands import FleetCommands, PaletteEntry, palette_entries
from fleet_tui.ui.computer_use import ComputerUse
from fleet_tui.ui.connection import Connection
from fleet_tui.ui.copy_command import CommandCopy
from fleet_tui.ui.keymap import Action, Extension, bindings_for
from fleet_tui.ui.preferences import Preferences
from fleet_tui.ui.reset import EnvReset
from fleet_tui.ui.screens.help import HelpScreen
from fleet_tui.ui.screens.main_screen import MainScreen
from fleet_tui.ui.server_dialogs import ServerDialogs
from fleet_tui.ui.sidebar import SidebarActions
from fleet_tui.ui.widgets.banner import Banner
from fleet_tui.ui.widgets.catalog_panes import CatalogPane, PromptsPane, ResourcesPane
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_panel import ToolPanel

if TYPE_CHECKING:  # the session's models and the panes mounted after the first frame: their
    # modules load then
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import Env, ResetResult, Tool, ToolResult
    from fleet_tui.envs.targets import Target
    from fleet_tui.session.recorder import SessionRecorder
    from fleet_tui.ui.widgets.history import HistoryTable
    from fleet_tui.ui.widgets.result_view import ResultView
    from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane
    from fleet_tui.ui.widgets.server_log import ServerLogPane

_TASK_OPTIONS = "the tasks need --tasks FILE or --verifier FILE"
_AGENT_OPTION = "the agent's calls need --serve-mcp (an agent connects to the MCP it serves)"
UNAVAILABLE_BECAUSE: dict[Extension, str] = {
    Extension.SHOW_TASKS: _TASK_OPTIONS,
    Extension.VERIFY_TASK: _TASK_OPTIONS,
    Extension.SHOW_STATE: "the state is a Fleet instance's or an OpenEnv session's",
    Extension.SHOW_AGENT: _AGENT_OPTION,
    Extension.AGENT_PAUSE: _AGENT_OPTION,
    Extension.AGENT_STEP: _AGENT_OPTION,
}
"""Why an extension's action is missing, by what it would need."""


class FleetTuiApp(App[int]):
    """fleet-tui's interactive app on one target."""

    CSS_PATH = "app.tcss"
    TITLE = "fleet-tui"
    BINDINGS = bindings_for("global")
    COMMANDS = {FleetCommands}  # Textual's own commands come after fleet-tui's, in its entries

    def __init__(
        self,
        target: Target | Callable[[], Target],
        *,
        env_factory: Callable[[Target], Env] | None = None,
        recorder: SessionRecorder | Callable[[Target], SessionRecorder | None] | None = None,
        keep_note: list[str] | None = None,
        image_folder: Path | None = None,
        roots: list[str] | None = None,
        preferences: Preferences | None = None,
        timeout_s: float | None = DEFAULT_CALL_TIMEOUT_S,
    ) -> None:
        super().__init__()
        self.preferences = preferences or Preferences()
        """What is remembered between runs (the sidebar's width); by default, for this run."""
        self.server_dialogs = ServerDialogs(self)
        """What servers ask the person (elicitation, sampling, sign-in), as dialogs."""
        self._session_parts = (target, env_factory, recorder, roots)
        """What `controller` makes the session of: the target (or what makes it, from the
        command line's words) and the recorder (or what opens one for the target)."""
        self._session: SessionController | None = None
        self.shutting_down = False
        self.confirmed_destructive: set[str] = set()
        """Destructive tools the person agreed to call in this session (asked once each)."""
        self.keep_note = keep_note if keep_note is not None else []
        """Filled on exit with lines telling how to attach again to a kept instance."""
        self.image_folder = image_folder
        """Where images too large to show are saved (None: a temporary folder)."""
        self.env_ready: Signal[list[Tool]] = Signal(self, "env-ready")
        self.call_finished: Signal[CallRecord] = Signal(self, "call-finished")
        self.env_reset: Signal[ResetResult] = Signal(self, "env-reset")
        self.extensions: list[Callable[[FleetTuiApp], Any]] = []
        """Called with the app once it is mounted (awaited if async): adds panes and actions."""
        self.extension_actions: dict[Extension, Callable[[], Any]] = {}
        """Actions an extension offers; keys run them through `action_extension(name)`."""
        self.status_notes: list[Callable[[], Text]] = []
        """What extensions add to the status line, before the endpoints (the MCP proxy's
        address)."""
        self.closers: list[Callable[[], Awaitable[None]]] = []
        """Run on quit, before the env is closed (the MCP proxy stops there)."""
        self.main = MainScreen(
            lambda: self.controller, self.status_notes, self.preferences, timeout_s
        )
        """The screen under the dialogs: the status line, the sidebar, the form, the result."""
        self.connection = Connection(self, self.main)
        """Connecting and reconnecting, and listing the tools again."""
        self.sidebar_actions = SidebarActions(self, self.main)
        """The sidebar's tabs (f2-f5), hiding it, and what the history's keys ask for."""
        self.command_copy = CommandCopy(self)
        """The form's call as a `fleet-tui call` command line (ctrl+y)."""
        self.resetter = EnvReset(self)
        """Resetting the env (ctrl+r): a new episode."""
        self.computer = ComputerUse(self)
        """The screenshot pane's clicks and keys, run as `computer` tool calls."""
        self.calls = Calls(self)
        """Calling tools (one call worker at a time) and showing results."""
        self.catalog = Catalog(self, self.calls.show_plan)
        """The Resources and Prompts panes (added when the env's servers list some)."""

    @property
    def controller(self) -> SessionController:
        """The session: target, env, tools, call records, episode, connection state. Made
        when first asked for: by the main screen once its first frame is drawn, so the
        session's modules (pydantic's models among them) load after that frame."""
        if self._session is None:
            with loading_modules():
                self._session = self._make_session()
        return self._session

    def _make_session(self) -> SessionController:
        from fleet_tui.controller import SessionController
        from fleet_tui.envs.factory import make_env
        from fleet_tui.ui.session_view import SessionView

        target, env_factory, recorder, roots = self._session_parts
        target = target() if callable(target) else target
        session = SessionController(
            target,
            env_factory or make_env,
            self.server_dialogs.answers(roots),
            recorder=recorder(target) if callable(recorder) else recorder,
        )
        session.subscribe(SessionView(self).show)
        return session

    @property
    def made_session(self) -> SessionController | None:
        """The session if it was made (None before the first frame, when the app ended
        before it, or when making it failed): what closing and help look at without making
        one."""
        return self._session

    # -- the main screen: what extensions and tests use of it, handed over to it ------------------

    def get_default_screen(self) -> MainScreen:
        return self.main

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None:
        """Add a tab to the sidebar (for panels such as tasks or state)."""
        await self.main.add_sidebar_pane(title, widget, pane_id)

    def show_sidebar_pane(self, pane_id: str) -> None:
        """Show the sidebar, on the pane `pane_id` (the caller then focuses what it wants)."""
        self.main.show_sidebar_pane(pane_id)

    def refresh_status(self) -> None:
        self.main.refresh_status()

    @property
    def tool_list(self) -> ToolList:
        return self.main.tool_list

    @property
    def tool_panel(self) -> ToolPanel:
        return self.main.tool_panel

    @property
    def result_view(self) -> ResultView:
        return self.main.result_view

    @property
    def history(self) -> HistoryTable:
        return self.main.history

    @property
    def screenshot_pane(self) -> ScreenshotPane:
        return self.main.screenshot_pane

    @property
    def banner(self) -> Banner:
        return self.main.banner

    def action_widen_sidebar(self) -> None:
        self.main.sidebar_layout.widen()

    def action_narrow_sidebar(self) -> None:
        self.main.sidebar_layout.narrow()

    def action_toggle_zoom(self) -> None:
        self.main.sidebar_layout.toggle_zoom()

    # -- starting, and the parts' keys ------------------------------------------------------------

    def on_mount(self) -> None:
        self.env_ready.subscribe(self, self.catalog.env_ready)

    def on_ready(self) -> None:
        """Textual's Ready: the first frame is painted, so connecting may do its heavy work."""
        self.connection.first_frame_drawn.set()

    @on(MainScreen.Ready)
    def _start(self) -> None:
        """Connect once the main screen is up; extensions then add their panes and keys (not
        when the person quit meanwhile: what they would open would outlive the closing)."""
        if self.shutting_down:
            return
        self.connection.start()
        for extension in self.extensions:
            self.call_later(extension, self)
        self.call_later(self.refresh_bindings)  # the footer shows the keys extensions added

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that would do nothing on this target are left out of the footer: a reset on
        plain MCP servers, an extension's action no extension offers here (tasks without
        --tasks, the agent's without --serve-mcp). Until the main screen has mounted the
        panes its first frame leaves out, only quitting and help work: the others (shown, but
        dimmed) may reach for those panes."""
        if not self.main.complete and action not in ("quit", "help"):
            return None
        if action == "reset_env":
            return self.controller.target.kind != "mcp"
        if action == "extension" and parameters:
            return parameters[0] in self.extension_actions
        return True

    def action_extension(self, name: str) -> None:
        """The keys' way in: `name` is an `Extension`'s value, as Textual's action string
        carries it."""
        self.run_extension(Extension(name))

    def run_extension(self, action: Extension) -> None:
        """Run an action an extension registered (tasks, state, sessions), or say why it is
        not available here."""
        handler = self.extension_actions.get(action)
        if handler is None:
            why = UNAVAILABLE_BECAUSE.get(action, "the app was started without it")
            self.notify(f"Not available here: {why}.", severity="warning")
            return
        handler()

    def on_tool_panel_call_requested(self) -> None:
        self.calls.send_form()

    def action_call(self, _held: str = "") -> None:
        """ctrl+s: call the form's tool, or release the agent's held call in the form."""
        self.calls.send_form()

    def action_cancel_call(self) -> None:
        if self.main.progress.shown:
            self.workers.cancel_group(self, "connection")
        elif self.calls.running:
            self.workers.cancel_group(self, "call")
            self.notify("Call cancelled.")
        elif self.screenshot_pane.typing:
            self.screenshot_pane.typing = False

    @property
    def call_running(self) -> bool:
        return self.calls.running

    def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None:
        """Call a tool in a worker; returns its record (None if not started, said why)."""
        return self.calls.start(name, arguments)

    async def run_call(self, record: CallRecord) -> None:
        await self.calls.run_call(record)

    async def run_queued(self) -> None:
        await self.calls.run_queued()

    async def show_call(self, record: CallRecord, result: ToolResult | None) -> None:
        await self.calls.show_call(record, result)

    async def show_result(self, entry: CallRecord) -> None:
        await self.calls.show_result(entry)

    @on(ShowResult)
    @on(StartCall)
    @on(ShowTool)
    async def _calls_asked(self, event: Message) -> None:
        await self.calls.asked(event)

    @on(CatalogPane.Refresh)
    @on(ResourcesPane.Read)
    @on(ResourcesPane.ReadTemplate)
    @on(ResourcesPane.Subscription)
    @on(PromptsPane.Get)
    def _catalog_asked(self, event: Message) -> None:
        self.catalog.asked(event)

    def on_result_view_open_resource(self, event: ResultView.OpenResource) -> None:
        self.catalog.read(event.uri)

    def action_show_resources(self) -> None:
        self.catalog.show_resources()

    def action_show_prompts(self) -> None:
        self.catalog.show_prompts()

    def action_copy_command(self) -> None:
        self.command_copy.copy()

    def action_reset_env(self) -> None:
        self.resetter.ask()

    def action_take_screenshot(self) -> None:
        self.computer.take_screenshot()

    def action_toggle_live(self) -> None:
        self.computer.toggle_live()

    def action_toggle_typing(self) -> None:
        self.computer.toggle_typing()

    async def on_screenshot_pane_act(self, event: ScreenshotPane.Act) -> None:
        await self.computer.act(event)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "call" and event.worker.is_finished:
            self.computer.call_worker_finished()

    def start_reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the env in a worker (the Tasks pane and the Trajectory pane reset too)."""
        self.resetter.start(seed, options)

    def start_connect(self, reopen: bool = False) -> None:
        """Connect (`reopen`: reopen the connected env's connections) in a worker (the Tasks
        pane connects to the env a task starts)."""
        self.connection.start(reopen)

    def action_reconnect(self) -> None:
        if self.shutting_down:
            return
        self.workers.cancel_group(self, "call")
        self.connection.start(reopen=True)

    def on_progress_panel_cancelled(self) -> None:
        self.workers.cancel_group(self, "connection")

    def action_show_endpoints(self) -> None:
        self.connection.show_endpoints()

    def action_show_tools(self) -> None:
        self.sidebar_actions.show_tools()

    def action_focus_filter(self) -> None:
        self.sidebar_actions.show_tools()

    def action_show_history(self) -> None:
        self.sidebar_actions.show_history()

    def action_show_log(self) -> None:
        self.sidebar_actions.show_log()

    def action_show_protocol(self) -> None:
        self.sidebar_actions.show_protocol()

    def action_toggle_sidebar(self) -> None:
        self.sidebar_actions.toggle()

    async def on_history_table_action(self, event: HistoryTable.Action) -> None:
        await self.sidebar_actions.act_on_history(event)

    def on_server_log_pane_level_chosen(self, event: ServerLogPane.LevelChosen) -> None:
        self.sidebar_actions.ask_log_level(event.level)

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

    def copy_to_clipboard(self, text: str) -> None:
        """Copy to the terminal's clipboard, and where it can be pasted from when the terminal
        drops that (tmux's buffer, a file), saying where."""
        super().copy_to_clipboard(text)
        self.notify(copy_beyond_the_terminal(text), title="Copied", markup=False, timeout=8)

    # -- tools and the form ----------------------------------------------------------------------

    async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None:
        await self.calls.show_tool(name, arguments)

    # -- help, palette ---------------------------------------------------------------------------

    def focused_area(self) -> str:
        node: DOMNode | None = self.focused
        while node is not None:
            area = getattr(node, "HELP_AREA", None)
            if area:
                return area
            node = node.parent
        return getattr(self.screen, "HELP_AREA", "global")

    def offers(self, action: Action) -> bool:
        """Whether `action` does something for this target: F1 and the palette list only
        those (an extension's action once it registered it, computer-use keys on such envs)."""
        if action.name == "call('held')":  # an agent's held call: with --serve-mcp only
            return Extension.AGENT_STEP in self.extension_actions
        if action.extension is not None:
            return action.extension in self.extension_actions
        session = self.made_session  # F1 may come before the session is made: not for F1
        return (session is not None and session.computer_use) or not action.computer_use

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(self.focused_area(), self.offers))

    def palette_entries(self) -> list[PaletteEntry]:
        return palette_entries(
            self, self.controller.tools, self.sidebar_actions.open_tool, self.offers
        )

    # -- quitting --------------------------------------------------------------------------------

    async def action_quit(self) -> None:
        if self.shutting_down:
            return
        self.shutting_down = True
        self.main.progress.start("Closing what fleet-tui created…")
        self.workers.cancel_group(self, "call")
        self.workers.cancel_group(self, "connection")
        self.run_worker(self._close_then_exit(), group="shutdown")

    async def run_closers(self) -> None:
        """Run each closer once (on quit, or after the app ended another way)."""
        closers, self.closers = self.closers, []
        for closer in closers:
            with contextlib.suppress(Exception):
                await closer()

    async def _close_then_exit(self) -> None:
        """(Not `_shutdown`: that name is Textual's own exit sequence.)"""
        await self.run_closers()
        with contextlib.suppress(Exception):
            if self._session is not None:
                await self._session.close_env()
        self.exit(0)
