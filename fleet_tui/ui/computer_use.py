"""Driving a computer-use env from the app: clicks on the screenshot act (live mode) or fill
the `computer` tool's form, keys go to the env in typing mode, and a screenshot on demand.

A part of the app with a narrow port: `ComputerUse` reaches the app only through
`ComputerUseHost`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from fleet_tui.text import one_line
from fleet_tui.ui.calls import ShowTool, StartCall
from fleet_tui.ui.host import AppServices

if TYPE_CHECKING:  # the session's models and the screenshot pane load after the first frame
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane


class ComputerUseHost(AppServices, Protocol):
    """What computer use needs of the app: the session, the screenshot pane, the form and
    the call worker."""

    @property
    def controller(self) -> SessionController: ...

    @property
    def screenshot_pane(self) -> ScreenshotPane: ...

    @property
    def call_running(self) -> bool: ...

    def start_call(self, name: str, arguments: dict[str, Any]) -> CallRecord | None:
        """Called, not asked by a message: an action is queued when a call runs, so the
        call must have started before the next action is looked at."""


class ComputerUse:
    """The screenshot pane's actions, run as `computer` tool calls."""

    def __init__(self, host: ComputerUseHost) -> None:
        self._host = host

    def call_worker_finished(self) -> None:
        """Actions queued just as the call worker was finishing start a new one."""
        from fleet_tui.controller import ConnectionState
        from fleet_tui.envs.base import COMPUTER_TOOL

        session = self._host.controller
        if (
            session.pending_actions
            and not self._host.call_running
            and session.state == ConnectionState.CONNECTED
        ):
            self._host.start_call(COMPUTER_TOOL, session.pending_actions.pop(0))

    async def act(self, event: ScreenshotPane.Act) -> None:
        """A click or key on the screenshot: sent (queued behind a running call) or put in
        the form."""
        from fleet_tui.envs.base import COMPUTER_TOOL

        host = self._host
        if not event.send:
            host.post_message(ShowTool(COMPUTER_TOOL, event.arguments))
            host.notify(f"Form filled: {_args_text(event.arguments)} (ctrl+s sends it)")
            return
        if host.call_running:
            host.controller.pending_actions.append(event.arguments)
        else:
            host.start_call(COMPUTER_TOOL, event.arguments)

    def take_screenshot(self) -> None:
        from fleet_tui.envs.base import COMPUTER_TOOL

        if self._has_computer():
            self._host.post_message(StartCall(COMPUTER_TOOL, {"action": "screenshot"}))

    def toggle_live(self) -> None:
        pane = self._host.screenshot_pane
        pane.live = not pane.live
        self._host.notify(
            "Live mode: clicks act at once." if pane.live else "Clicks fill the form."
        )

    def toggle_typing(self) -> None:
        if not self._has_computer():
            return
        pane = self._host.screenshot_pane
        pane.typing = not pane.typing
        if pane.typing:
            self._host.notify("Typing mode: keys go to the env (esc leaves).")

    def _has_computer(self) -> bool:
        """Whether the env has a computer tool (saying so when it has none)."""
        if not self._host.controller.computer_use:
            self._host.notify("This env has no computer tool.", severity="warning")
        return self._host.controller.computer_use


def _args_text(arguments: dict[str, Any]) -> str:
    return one_line(", ".join(f"{k}={v}" for k, v in arguments.items()), 80)
