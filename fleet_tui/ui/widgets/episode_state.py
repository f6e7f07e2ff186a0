"""The State pane of an episodic session (OpenEnv): the env's `state()`, asked over the session
itself, shown by shape as observations are (else as JSON). It is read when the pane is shown
(f7) and again after each step or reset while it stays on screen; it is not read when nobody
looks."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from fleet_tui.envs.base import EnvError
from fleet_tui.observation_view import observation_view, shown_lines
from fleet_tui.text import named_error, one_line, pretty_json
from fleet_tui.ui.widgets.text_pager import PagerText, TextPager


class EpisodeStatePanel(Vertical):
    """Shows what `read_state` answers; `refresh_state()` reads it again (in a worker)."""

    DEFAULT_CSS = """
    EpisodeStatePanel { height: 1fr; }
    EpisodeStatePanel #episode-state-note { height: auto; padding: 0 1; }
    EpisodeStatePanel #episode-state-json { height: 1fr; }
    """

    def __init__(
        self, read_state: Callable[[], Awaitable[dict[str, Any]]], *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.read_state = read_state
        self.state: dict[str, Any] | None = None
        self.reads = 0

    def compose(self) -> ComposeResult:
        yield Static(Text("Not read yet: f7 reads it.", style="dim"), id="episode-state-note")
        yield TextPager(id="episode-state-json")

    def refresh_if_shown(self) -> None:
        """Read the state again if the pane is on screen (after a step or a reset)."""
        if self.is_on_screen:
            self.refresh_state()

    def refresh_state(self) -> None:
        self._read()

    @work(group="episode-state", exclusive=True, exit_on_error=False)
    async def _read(self) -> None:
        note = self.query_one("#episode-state-note", Static)
        try:
            state = await self.read_state()
        except Exception as error:  # a dropped session, a server that cannot tell its state
            message = error.message if isinstance(error, EnvError) else named_error(error)
            note.update(Text(one_line(f"No state: {message}", 300), style="red"))
            return
        self.state = state
        self.reads += 1
        note.update(Text(f"Session state, read at {time.strftime('%H:%M:%S')}", style="dim"))
        self.query_one("#episode-state-json", TextPager).set_text(
            PagerText.build(state_text(state))
        )


def state_text(state: dict[str, Any]) -> str:
    """The state by shape, as an observation is shown (a board as rows, long text as text),
    else as JSON."""
    shown = observation_view(state)
    if shown is None:
        return pretty_json(state)
    return "\n".join(shown_lines(shown, lambda image: f"[image {image.mime_type}]"))
