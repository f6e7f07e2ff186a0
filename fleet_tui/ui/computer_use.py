"""Driving a computer-use env from the app: clicks on the screenshot act (live mode) or fill
the `computer` tool's form, keys go to the env in typing mode, and a screenshot on demand."""

from __future__ import annotations

from typing import Any

from textual.worker import Worker

from fleet_tui.controller import ConnectionState
from fleet_tui.tasks.start import COMPUTER_TOOL
from fleet_tui.text import one_line
from fleet_tui.ui.app_part import AppPart
from fleet_tui.ui.widgets.screenshot_pane import ScreenshotPane


class ComputerUseActions(AppPart):
    """The screenshot pane's actions, run as `computer` tool calls."""

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

    async def on_screenshot_pane_act(self, event: ScreenshotPane.Act) -> None:
        if not event.send:
            await self.show_tool(COMPUTER_TOOL, event.arguments)
            self.notify(f"Form filled: {_args_text(event.arguments)} (ctrl+s sends it)")
            return
        if self.call_running:
            self.controller.pending_actions.append(event.arguments)
        else:
            self.start_call(COMPUTER_TOOL, event.arguments)

    def action_take_screenshot(self) -> None:
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


def _args_text(arguments: dict[str, Any]) -> str:
    return one_line(", ".join(f"{k}={v}" for k, v in arguments.items()), 80)
