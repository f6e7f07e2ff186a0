"""The roots the client offers servers, changed while connected: enter adds the directory
typed, delete removes the highlighted one, and the servers are told
(notifications/roots/list_changed) so those that care ask for them again."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from fleet_tui.envs.server_requests import root_uris
from fleet_tui.text import describe_error, visible

if TYPE_CHECKING:  # the session's models load after the first frame
    from fleet_tui.controller import SessionController


def offered_uri(path: str) -> str:
    """The URI a path typed would be offered as (`~` expanded, relative to here)."""
    return root_uris([path if path.startswith("file://") else os.path.expanduser(path)])[0]


class RootsEditor(Vertical):
    """The roots offered, a box to add one and a line saying how the last change went."""

    def __init__(self, controller: SessionController) -> None:
        super().__init__(id="roots-editor")
        self.controller = controller

    def compose(self) -> ComposeResult:
        yield OptionList(*self._options(), id="root-list")
        yield Input(placeholder="A directory to offer (enter adds it)", id="root-input")
        yield Static(id="root-note")

    def _options(self) -> list[Option]:
        roots = self.controller.roots()
        if not roots:
            return [Option(Text("(no roots offered)", style="dim"), disabled=True)]
        return [Option(Text(visible(uri))) for uri in root_uris(roots)]

    def focus_input(self) -> None:
        self.query_one("#root-input", Input).focus()

    @on(Input.Submitted, "#root-input")
    def _add(self, event: Input.Submitted) -> None:
        path = event.value.strip()
        roots = self.controller.roots()
        if not path:
            self._note("type a directory's path, then enter", error=True)
        elif offered_uri(path) in root_uris(roots):
            self._note(f"already offered: {path}", error=True)
        else:
            self._change([*roots, path], f"added {path}")

    def remove_highlighted(self) -> None:
        roots = self.controller.roots()
        index = self.query_one("#root-list", OptionList).highlighted
        if index is None or index >= len(roots):
            self._note("no root highlighted to remove", error=True)
            return
        self._change(roots[:index] + roots[index + 1 :], f"removed {roots[index]}")

    def _change(self, roots: list[str], done: str) -> None:
        self.run_worker(self._set_roots(roots, done), group="roots", exclusive=True)

    async def _set_roots(self, roots: list[str], done: str) -> None:
        try:
            problems = await self.controller.set_roots(roots)
        except ValueError as error:  # a path that is not a directory: nothing changed
            self._note(str(error), error=True)
            return
        except Exception as error:
            self._note(f"could not tell the servers: {describe_error(error)}", error=True)
            return
        option_list = self.query_one("#root-list", OptionList)
        option_list.set_options(self._options())
        self.query_one("#root-input", Input).clear()
        if problems:
            self._note(f"{done}; not told: {'; '.join(problems)}", error=True)
        else:
            self._note(f"{done}; the servers were told the roots changed")

    def _note(self, line: str, *, error: bool = False) -> None:
        self.query_one("#root-note", Static).update(
            Text(visible(line), style="red" if error else "green")
        )
