"""Copy the tool call in the form as a `fleet-tui call` command line (ctrl+y); a form with
schema warnings gives `--unchecked`, so the command sends what the form would.

A part of the app with a narrow port: `CommandCopy` reaches the app only through
`CommandCopyHost` (the session, the form, toasts and the clipboard)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from fleet_tui.text import one_line
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.widgets.tool_panel import ToolPanel

if TYPE_CHECKING:  # the session's models load after the first frame
    from fleet_tui.controller import SessionController


class CommandCopyHost(AppServices, Protocol):
    """What copying a call as a command needs of the app."""

    @property
    def controller(self) -> SessionController: ...

    @property
    def tool_panel(self) -> ToolPanel: ...

    def copy_to_clipboard(self, text: str) -> None: ...


class CommandCopy:
    """The form's call as a command that repeats it from a shell."""

    def __init__(self, host: CommandCopyHost) -> None:
        self._host = host

    def current_command(self) -> str | None:
        """The command for the form's call (None without a tool; ValueError for bad JSON)."""
        from fleet_tui.call_command import call_command

        panel = self._host.tool_panel
        if panel.tool is None:
            return None
        arguments = panel.arguments()
        session = self._host.controller
        info = session.env.info if session.env is not None else None
        keep = info is not None and (info.keep or not info.created_here)
        instance = info.instance_id if info is not None and keep else None
        return call_command(
            session.target,
            panel.tool.name,
            arguments,
            instance,
            unchecked=bool(panel.problems()),
        )

    def copy(self) -> None:
        """Copy the command to the clipboard, or say why there is none."""
        try:
            command = self.current_command()
        except ValueError as error:
            self._host.notify(one_line(str(error), 300), severity="error", markup=False)
            return
        if command is None:
            self._host.notify("Pick a tool first.", severity="warning")
            return
        self._host.copy_to_clipboard(command)
        self._host.notify(command, title="Copied to the clipboard", markup=False, timeout=8)
