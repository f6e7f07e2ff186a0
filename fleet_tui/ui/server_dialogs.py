"""What servers ask the person, answered through dialogs: an elicitation opens a form, a
sampling request a reply box, a sign-in (OAuth) shows the authorization URL until the browser
comes back; the roots offered are the ones given (`--root`), none by default. The app gives
the session `DialogAnswers` as its port for what servers ask. The MCP session runs in the
app's event loop, so a request waits for its dialog. Elicitation and
sampling wait in one `RequestLine`: a few dialogs at a time, the number waiting shown under
them, the rest refused.

A part of the app with a narrow port: `ServerDialogs` reaches the app only through
`DialogHost` (its screen stack)."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol, TypeVar

from textual.screen import ModalScreen, Screen
from textual.signal import Signal

from fleet_tui.envs.request_line import RequestLine
from fleet_tui.envs.server_requests import (
    ElicitAnswer,
    ElicitRequest,
    SampleRequest,
    SignInRequest,
)
from fleet_tui.ui.screens.sign_in_screen import SignInScreen

T = TypeVar("T")


class DialogAnswers:
    """The session's port for what servers ask (`ServerRequests`): the app's dialogs, and
    the roots given."""

    def __init__(self, dialogs: ServerDialogs, roots: list[str]) -> None:
        self._dialogs = dialogs
        self._roots = roots

    async def elicit(self, request: ElicitRequest) -> ElicitAnswer:
        return await self._dialogs.ask_elicitation(request)

    async def sample(self, request: SampleRequest) -> str | None:
        return await self._dialogs.ask_sampling(request)

    def roots(self) -> list[str]:
        return list(self._roots)

    async def sign_in(self, request: SignInRequest) -> None:
        await self._dialogs.ask_sign_in(request)


class DialogHost(Protocol):
    """What the dialogs need of the app: its screen stack."""

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    @property
    def screen_change_signal(self) -> Signal[Screen[Any]]: ...

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> Any: ...

    def pop_screen(self) -> Any: ...


class ServerDialogs:
    """Answers servers' elicitation, sampling and sign-in requests by asking the person."""

    def __init__(self, host: DialogHost) -> None:
        self._host = host
        self.server_requests = RequestLine(self._show_waiting)
        """Elicitation and sampling requests: a few dialogs open, a bounded number waiting."""

    def answers(self, roots: list[str] | None = None) -> DialogAnswers:
        """The port that answers servers through these dialogs, offering `roots` (default:
        none)."""
        return DialogAnswers(self, list(roots or []))

    async def ask_elicitation(self, request: ElicitRequest) -> ElicitAnswer:
        from fleet_tui.ui.screens.elicitation_screen import ElicitationScreen  # forms load here

        unanswered = ElicitAnswer("cancel")
        return await self.server_requests.ask(
            lambda: self._ask(ElicitationScreen(request), unanswered)
        )

    async def ask_sampling(self, request: SampleRequest) -> str | None:
        from fleet_tui.ui.screens.sampling_screen import SamplingScreen

        return await self.server_requests.ask(lambda: self._ask(SamplingScreen(request), None))

    def _show_waiting(self, count: int) -> None:
        """Say under each open server dialog how many more requests wait."""
        waiting = f"{count:,} more server requests waiting" if count else ""
        from fleet_tui.ui.screens.elicitation_screen import ElicitationScreen
        from fleet_tui.ui.screens.sampling_screen import SamplingScreen

        for screen in self._host.screen_stack:
            if isinstance(screen, ElicitationScreen | SamplingScreen):
                for box in screen.query(".ask-box"):
                    box.border_subtitle = waiting

    async def ask_sign_in(self, request: SignInRequest) -> None:
        """Show where to sign in until the sign-in ends (this is cancelled then) or the person
        gives it up (this returns)."""
        await self._ask(SignInScreen(request), None)

    async def _ask(self, screen: ModalScreen[T], unanswered: T) -> T:
        """Show `screen` and wait for its answer; if the request is given up meanwhile (the
        call cancelled, the connection closed), close it with `unanswered`."""
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def answered(result: T | None) -> None:
            if not answer.done():
                answer.set_result(result if result is not None else unanswered)

        await self._host.push_screen(screen, callback=answered)
        self._show_waiting(self.server_requests.waiting)
        try:
            return await answer
        except asyncio.CancelledError:  # given up (cancelling this cancels `answer` too)
            self._close_when_shown(screen)
            raise

    def _close_when_shown(self, screen: Screen[Any]) -> None:
        """Close the dialog `screen` now if it is on top, else once what covers it (another
        server's dialog, help) closes; nothing once the app quits."""

        host = self._host

        def close_if_shown(_: Screen[Any]) -> None:
            if host.screen_stack and host.screen_stack[-1] is screen:
                host.pop_screen()

        if host.screen_stack and host.screen_stack[-1] is screen:
            host.pop_screen()
        elif screen in host.screen_stack:
            host.screen_change_signal.subscribe(screen, close_if_shown)
