"""Copy the tool call in the form as a `fleet-tui call` command line (ctrl+y); a form with
schema warnings gives `--unchecked`, so the command sends what the form would."""

from __future__ import annotations

from fleet_tui.call_command import call_command
from fleet_tui.text import one_line
from fleet_tui.ui.app_part import AppPart


class CopyCommandAction(AppPart):
    """The form's call as a command that repeats it from a shell."""

    def current_command(self) -> str | None:
        """The command for the form's call (None without a tool; ValueError for bad JSON)."""
        panel = self.tool_panel
        if panel.tool is None:
            return None
        arguments = panel.arguments()
        env = self.controller.env
        info = env.info if env is not None else None
        keep = info is not None and (info.keep or not info.created_here)
        instance = info.instance_id if info is not None and keep else None
        return call_command(
            self.controller.target,
            panel.tool.name,
            arguments,
            instance,
            unchecked=bool(panel.problems()),
        )

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
