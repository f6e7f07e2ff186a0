"""Connecting the app to its target: the connection worker, its progress, setting up the tool
list (or the computer-use layout) once the env's tools are known, and listing them again when a
server says they changed."""

from __future__ import annotations

import asyncio
from functools import cached_property

from textual.widgets import Input

from fleet_tui.call_command import target_options
from fleet_tui.controller import ConnectionState
from fleet_tui.envs.base import EnvInfo, Tool
from fleet_tui.envs.targets import LocalTarget
from fleet_tui.tasks.start import COMPUTER_TOOL
from fleet_tui.text import describe_error
from fleet_tui.ui.app_part import AppPart
from fleet_tui.ui.screens.endpoints import EndpointsScreen
from fleet_tui.ui.widgets.progress_panel import ProgressPanel
from fleet_tui.ui.widgets.tool_panel import form_arguments

SIDEBAR_BESIDE_PICTURE = 100
"""From this many columns the sidebar stays beside a computer-use env's picture."""


class ConnectionSetup(AppPart):
    """Connect, reconnect and cancel connecting; lay the app out for the env's tools."""

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
            await self.first_frame_drawn.wait()
            tools = await self.controller.connect()
        except asyncio.CancelledError:
            self._connection_failed("Connecting was cancelled; nothing was left running.")
            raise
        except Exception as error:
            self._connection_failed(f"Could not connect: {describe_error(error)}")
            return
        self.query_one(ProgressPanel).stop()
        await self._tools_ready(tools)

    @cached_property
    def first_frame_drawn(self) -> asyncio.Event:
        """Set once the app's first frame is drawn: connecting (making the env, importing the
        mcp SDK in a thread) waits for it, as it would otherwise share the process with
        drawing that frame, and hold it back."""
        return asyncio.Event()

    def on_ready(self) -> None:
        """Textual's Ready: the first frame is laid out and painted."""
        self.first_frame_drawn.set()

    def _connection_failed(self, message: str) -> None:
        self.query_one(ProgressPanel).stop()
        self.banner.show(message, action="reconnect", label="Connect again")
        self.refresh_status()

    async def _tools_ready(self, tools: list[Tool]) -> None:
        computer_use = self.controller.computer_use
        self.tool_list.set_tools(tools)
        self.notify_new_warnings()
        self.screenshot_pane.display = computer_use
        self.query_one("#body").set_class(computer_use, "-computer")
        self.query_one("#sidebar").display = self._sidebar_fits(computer_use)
        self.apply_sidebar_width()
        self.refresh_status()
        if computer_use:
            await self.show_tool(COMPUTER_TOOL, {"action": "screenshot"})
            self.start_call(COMPUTER_TOOL, {"action": "screenshot"})
        elif self.tool_list.shown and self.tool_panel.tool is None:
            await self.show_tool(self.tool_list.shown[0].name)  # the best match of what was typed
        opening = self.controller.episode.opening
        if opening is not None and not computer_use:  # what the env showed when it reset
            await self.show_result(opening)
        self._focus_after_connecting(tools, computer_use)
        self.refresh_bindings()  # the footer's keys follow the target (a task may switch it)
        self.env_ready.publish(tools)

    async def refresh_tools(self) -> None:
        """List the tools again (a server said they changed). The open form stays as it is,
        with what was typed in it, unless its tool's schema changed (then it is rebuilt and
        refilled) or the tool is gone (then it says so)."""
        try:
            tools = await self.controller.refresh_tools()
        except Exception as error:
            self.notify(
                f"Could not list the tools again: {describe_error(error)}",
                severity="warning",
                markup=False,
            )
            return
        self.tool_list.set_tools(tools, keep_highlight=True)
        self.notify_new_warnings()
        panel = self.tool_panel
        if panel.tool is None:
            return
        fresh = self.controller.tool_named(panel.tool.name)
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

    def _sidebar_fits(self, computer_use: bool) -> bool:
        """A computer-use env's picture takes the room of the sidebar when the terminal is
        narrow (under SIDEBAR_BESIDE_PICTURE columns), unless something was typed in its tool
        filter while connecting (that text stays in sight)."""
        if not computer_use or self.size.width >= SIDEBAR_BESIDE_PICTURE:
            return True
        return bool(self.tool_list.query_one("#tool-filter", Input).value)

    def _focus_after_connecting(self, tools: list[Tool], computer_use: bool) -> None:
        """Leave the focus where the person put it while connecting (keys typed meanwhile went
        to the filter); the only tool's form takes it if nothing was typed, as there is nothing
        to pick. When a computer-use env's picture hides the filter, the picture takes it."""
        filter_box = self.tool_list.query_one("#tool-filter", Input)
        if computer_use:
            if self.focused not in self.screen.focus_chain:
                self.screenshot_pane.focus()
        elif len(tools) == 1 and filter_box.has_focus and not filter_box.value:
            self.call_after_refresh(self.tool_panel.focus_form)
        elif self.focused not in self.screen.focus_chain:  # none, or hidden meanwhile
            self.tool_list.focus_filter()

    def remember_kept(self, info: EnvInfo) -> None:
        """Fill `keep_note` with how to attach again to an instance kept running (--keep)."""
        if not (info.keep and info.instance_id):
            return
        target = self.controller.target
        self.keep_note[:] = [f"Instance {info.instance_id} is still running (--keep)."]
        if isinstance(target, LocalTarget):
            self.keep_note.append(
                "The embedded local host stops with fleet-tui, and the instance with it: for "
                "instances that outlive the app, run `fleet-tui local serve` and use --base-url "
                "(with FLEET_API_KEY set to the key it prints)."
            )
        else:
            command = " ".join(["fleet-tui", *target_options(target, info.instance_id)])
            self.keep_note.append(f"Attach again with: {command}")

    def action_show_endpoints(self) -> None:
        env = self.controller.env
        endpoints = env.endpoints() if env is not None else []
        self.push_screen(EndpointsScreen(endpoints, self.controller))

    def action_reconnect(self) -> None:
        if self.shutting_down:
            return
        self.workers.cancel_group(self, "call")
        self.start_connect(reopen=True)

    def on_progress_panel_cancelled(self) -> None:
        self.workers.cancel_group(self, "connection")
