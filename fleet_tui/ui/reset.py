"""Resetting the env from the app: ask for a seed, reset in a worker, show what the env said."""

from __future__ import annotations

from typing import Any

from fleet_tui.tasks.start import COMPUTER_TOOL
from fleet_tui.text import one_line
from fleet_tui.ui.app_part import AppPart
from fleet_tui.ui.screens.reset_screen import ResetAsked, ResetScreen


class ResetActions(AppPart):
    """Reset (ctrl+r): a new episode, then a fresh screenshot on computer-use envs."""

    def action_reset_env(self) -> None:
        if not self.controller.connected:
            self.notify("Not connected.", severity="error")
            return

        def chosen(asked: ResetAsked | None) -> None:
            if asked is not None:
                self.start_reset(asked.seed, asked.options)

        self.push_screen(ResetScreen(), chosen)

    def start_reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset the env in a worker (a new episode, with env keywords `options`), then show
        what it said."""
        self.run_worker(self._reset(seed, options), group="call", exit_on_error=False)

    async def _reset(self, seed: int | None, options: dict[str, Any] | None) -> None:
        record, outcome = await self.controller.reset(seed, options)
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
            await self.run_call(self.controller.add_record(COMPUTER_TOOL, {"action": "screenshot"}))
