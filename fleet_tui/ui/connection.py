"""Connecting the app to its target: the connection worker, its progress, showing the env's
tools once they are known (the main screen lays itself out for them), and listing them again
when a server says they changed.

A part of the app with a narrow port: `Connection` reaches the app only through
`ConnectionHost` and the screen it shows on through `ConnectionScreen`."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen
from textual.signal import Signal

from fleet_tui.text import describe_error
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.widgets.banner import Banner
from fleet_tui.ui.widgets.progress_panel import ProgressPanel
from fleet_tui.ui.widgets.tool_list import ToolList
from fleet_tui.ui.widgets.tool_panel import ToolPanel, form_arguments

if TYPE_CHECKING:  # the session's models load after the first frame
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import EnvInfo, Tool


class ConnectionHost(AppServices, Protocol):
    """What connecting needs of the app: the session, the first things shown once connected
    (a tool's form, a screenshot call, the reset's observation), the footer's keys and the
    signal extensions follow."""

    @property
    def controller(self) -> SessionController: ...

    env_ready: Signal[list[Tool]]
    keep_note: list[str]

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> Any: ...

    def refresh_bindings(self) -> None: ...

    def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None: ...

    async def show_tool(self, name: str, arguments: dict[str, Any] | None = None) -> None: ...

    async def show_result(self, entry: CallRecord) -> None: ...


class ConnectionScreen(Protocol):
    """What connecting needs of the screen it shows on."""

    @property
    def tool_list(self) -> ToolList: ...

    @property
    def tool_panel(self) -> ToolPanel: ...

    @property
    def banner(self) -> Banner: ...

    @property
    def progress(self) -> ProgressPanel: ...

    def refresh_status(self) -> None: ...

    def notify_new_warnings(self) -> None: ...

    def lay_out_for(self, computer_use: bool) -> None: ...

    def focus_after_connecting(self, tools: list[Tool], computer_use: bool) -> None: ...


class Connection:
    """Connect, reconnect and list the tools again."""

    def __init__(self, host: ConnectionHost, screen: ConnectionScreen) -> None:
        self._host = host
        self._screen = screen
        self.first_frame_drawn = asyncio.Event()
        """Set once the app's first frame is drawn (Textual's Ready): connecting (making the
        env, importing the mcp SDK) waits for it, as it would otherwise share the process with
        drawing that frame, and hold it back."""

    def start(self, reopen: bool = False) -> None:
        """Connect (`reopen`: reopen the connected env's connections) in a worker."""
        from fleet_tui.controller import ConnectionState

        session = self._host.controller
        session.start_connecting(reopen)
        self._screen.banner.hide()
        reopening = session.state == ConnectionState.RECONNECTING
        verb = "Reconnecting to" if reopening else "Connecting to"
        self._screen.progress.start(f"{verb} {session.target.describe()}")
        self._host.run_worker(
            self._connect(), group="connection", exclusive=True, exit_on_error=False
        )

    async def _connect(self) -> None:
        try:
            await self.first_frame_drawn.wait()
            tools = await self._host.controller.connect()
        except asyncio.CancelledError:
            self._failed("Connecting was cancelled; nothing was left running.")
            raise
        except Exception as error:
            self._failed(f"Could not connect: {describe_error(error)}")
            return
        self._screen.progress.stop()
        await self._tools_ready(tools)

    def _failed(self, message: str) -> None:
        self._screen.progress.stop()
        self._screen.banner.show(message, action="reconnect", label="Connect again")
        self._screen.refresh_status()

    async def _tools_ready(self, tools: list[Tool]) -> None:
        from fleet_tui.envs.base import COMPUTER_TOOL

        host, screen = self._host, self._screen
        computer_use = host.controller.computer_use
        screen.tool_list.set_tools(tools)
        screen.notify_new_warnings()
        screen.lay_out_for(computer_use)
        screen.refresh_status()
        if computer_use:
            await host.show_tool(COMPUTER_TOOL, {"action": "screenshot"})
            host.start_call(COMPUTER_TOOL, {"action": "screenshot"})
        elif screen.tool_list.shown and screen.tool_panel.tool is None:
            await host.show_tool(screen.tool_list.shown[0].name)  # the best match of what was typed
        opening = host.controller.episode.opening
        if opening is not None and not computer_use:  # what the env showed when it reset
            await host.show_result(opening)
        screen.focus_after_connecting(tools, computer_use)
        host.refresh_bindings()  # the footer's keys follow the target (a task may switch it)
        host.env_ready.publish(tools)

    async def refresh_tools(self) -> None:
        """List the tools again (a server said they changed). The open form stays as it is,
        with what was typed in it, unless its tool's schema changed (then it is rebuilt and
        refilled) or the tool is gone (then it says so)."""
        session = self._host.controller
        try:
            tools = await session.refresh_tools()
        except Exception as error:
            self._host.notify(
                f"Could not list the tools again: {describe_error(error)}",
                severity="warning",
                markup=False,
            )
            return
        self._screen.tool_list.set_tools(tools, keep_highlight=True)
        self._screen.notify_new_warnings()
        panel = self._screen.tool_panel
        if panel.tool is None:
            return
        fresh = session.tool_named(panel.tool.name)
        if fresh is None:
            panel.mark_gone()
        elif fresh.input_schema != panel.tool.input_schema:
            try:
                typed = form_arguments(panel.form) if panel.form is not None else None
            except ValueError:
                typed = None
            await panel.show_tool(fresh, typed)
        else:
            panel.tool = fresh

    def remember_kept(self, info: EnvInfo) -> None:
        """Fill `keep_note` with how to attach again to an instance kept running (--keep)."""
        from fleet_tui.call_command import target_options
        from fleet_tui.envs.targets import LocalTarget

        if not (info.keep and info.instance_id):
            return
        target = self._host.controller.target
        note = self._host.keep_note
        note[:] = [f"Instance {info.instance_id} is still running (--keep)."]
        if isinstance(target, LocalTarget):
            note.append(
                "The embedded local host stops with fleet-tui, and the instance with it: for "
                "instances that outlive the app, run `fleet-tui local serve` and use --base-url "
                "(with FLEET_API_KEY set to the key it prints)."
            )
        else:
            command = " ".join(["fleet-tui", *target_options(target, info.instance_id)])
            note.append(f"Attach again with: {command}")

    def show_endpoints(self) -> None:
        """The endpoints' info view (ctrl+e)."""
        from fleet_tui.ui.screens.endpoints import EndpointsScreen

        session = self._host.controller
        endpoints = session.env.endpoints() if session.env is not None else []
        self._host.push_screen(EndpointsScreen(endpoints, session))
