"""Resetting the env from the app: ask for a seed, reset in a worker, show what the env said.

A part of the app with a narrow port: `EnvReset` reaches the app only through `ResetHost`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.screen import Screen
from textual.signal import Signal

from fleet_tui.text import one_line
from fleet_tui.ui.calls import ShowResult
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.screens.reset_screen import ResetAsked, ResetScreen

if TYPE_CHECKING:  # the env's and session's models load after the first frame
    from fleet_tui.controller import CallRecord, SessionController
    from fleet_tui.envs.base import ResetResult


class ResetHost(AppServices, Protocol):
    """What resetting needs of the app: the session, a dialog, running a call (the screenshot
    after the reset, awaited: it follows the reset in the same worker), and the signal
    extensions follow."""

    @property
    def controller(self) -> SessionController: ...

    env_reset: Signal[ResetResult]

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> Any: ...

    async def run_call(self, record: CallRecord) -> None: ...


class EnvReset:
    """Reset (ctrl+r): a new episode, then a fresh screenshot on computer-use envs."""

    def __init__(self, host: ResetHost) -> None:
        self._host = host

    def ask(self) -> None:
        """Ask for a seed and options, then reset (ctrl+r)."""
        if not self._host.controller.connected:
            self._host.notify("Not connected.", severity="error")
            return

        def chosen(asked: ResetAsked | None) -> None:
            if asked is not None:
                self.start(asked.seed, asked.options)

        self._host.push_screen(ResetScreen(), chosen)

    def start(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the env in a worker (a new episode, with env keywords `options`), then show
        what it said."""
        self._host.run_worker(self._reset(seed, options), group="call", exit_on_error=False)

    async def _reset(self, seed: int | None, options: dict[str, Any] | None) -> None:
        from fleet_tui.envs.base import COMPUTER_TOOL

        host, session = self._host, self._host.controller
        record, outcome = await session.reset(seed, options)
        if outcome is None:
            host.notify(f"Reset failed: {record.message}", severity="error", markup=False)
            return
        host.post_message(ShowResult(record))
        host.notify(
            one_line(record.message, 200),
            markup=False,
            severity="information" if outcome.success else "error",
        )
        host.env_reset.publish(outcome)
        if session.computer_use:
            await host.run_call(session.add_record(COMPUTER_TOOL, {"action": "screenshot"}))
