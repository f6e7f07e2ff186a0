"""The dialogs a server's request opens show the endpoint's name literally in their border: it
is not read as markup (Pilot, each screen over a bare app)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App
from textual.screen import ModalScreen

from fleet_tui import ui
from fleet_tui.envs.server_requests import ElicitRequest, SampleRequest, SignInRequest
from fleet_tui.ui.screens.elicitation_screen import ElicitationScreen
from fleet_tui.ui.screens.sampling_screen import SamplingScreen
from fleet_tui.ui.screens.sign_in_screen import SignInScreen
from tests.app_driver import SIZE, screen_text

ENDPOINT = "http://127.0.0.1:9/[b]mcp[/b]"


class StyledApp(App[None]):
    """A bare app with fleet-tui's styles (the dialogs' borders)."""

    CSS_PATH = str(Path(ui.__file__).parent / "app.tcss")


@pytest.mark.parametrize(
    "dialog",
    [
        lambda: SignInScreen(SignInRequest(ENDPOINT, "http://a/authorize", "http://b/cb", 60)),
        lambda: ElicitationScreen(ElicitRequest(ENDPOINT, "Go?", {"type": "object"})),
        lambda: SamplingScreen(SampleRequest(ENDPOINT, [])),
    ],
    ids=["sign_in", "elicitation", "sampling"],
)
async def test_the_endpoint_in_the_border_is_shown_literally(dialog) -> None:
    app = StyledApp()
    async with app.run_test(size=SIZE) as pilot:
        screen: ModalScreen = dialog()
        await app.push_screen(screen)
        await pilot.pause()
        box = screen.query_one(".ask-box")
        bottom_border = screen_text(app).splitlines()[box.region.bottom - 1]
        assert ENDPOINT in bottom_border
