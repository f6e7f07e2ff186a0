"""The app answers a server's questions through dialogs (Pilot, a real SDK server): the
elicitation form is filled and accepted, declined or cancelled; the sampling dialog shows the
conversation literally and sends the typed reply; roots are reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.elicitation_screen import ElicitationScreen
from fleet_tui.ui.screens.sampling_screen import SamplingScreen
from tests.app_driver import SIZE, screen_text, wait_connected, wait_for, wait_idle
from tests.fixtures.mcp_servers import ServedMcp


async def start_call(pilot: Pilot, tool: str, arguments: dict | None = None) -> None:
    await pilot.app.show_tool(tool, arguments or {})
    await pilot.pause()
    await pilot.press("ctrl+s")


async def result_of_last_call(pilot: Pilot) -> str:
    await wait_for(pilot, lambda: pilot.app.controller.records)
    await wait_idle(pilot)
    record = pilot.app.controller.records[-1]
    assert record.status == "ok", record.message
    return record.result.blocks[0].text


async def open_booking(pilot: Pilot) -> ElicitationScreen:
    await wait_connected(pilot)
    await start_call(pilot, "book")
    return await wait_for(
        pilot, lambda: isinstance(pilot.app.screen, ElicitationScreen) and pilot.app.screen
    )


async def test_the_elicitation_form_is_filled_and_accepted(asking: ServedMcp) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await open_booking(pilot)
        await pilot.pause()
        shown = screen_text(app)
        assert "Book a table [b]tonight[/b]?" in shown  # the server's text, not markup
        assert "Who the table is for" in shown
        await pilot.press(*"Ada", "tab", "4")
        await pilot.pause()
        await pilot.press("ctrl+s")
        reply = json.loads(await result_of_last_call(pilot))
    assert reply == {
        "action": "accept",
        "data": {"name": "Ada", "guests": 4, "seating": "inside", "vegetarian": False},
    }


async def test_accept_is_refused_while_the_form_breaks_the_schema(asking: ServedMcp) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_booking(pilot)
        await pilot.press(*"Ada", "tab", *"40", "ctrl+s")
        await pilot.pause(0.3)
        assert app.screen is screen  # 40 guests is over the maximum of 12: not sent
        assert "Not sent" in screen_text(app)
        await pilot.press("escape")
        assert json.loads(await result_of_last_call(pilot)) == {"action": "cancel", "data": None}


async def test_an_elicitation_too_deep_for_the_sdk_gets_the_forms_budget_note(
    asking: ServedMcp,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await start_call(pilot, "deep", {"levels": 100})
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        await pilot.pause()
        assert "schema too complex to validate: nested deeper than 64" in screen_text(app)
        await pilot.press("ctrl+d")
        assert json.loads(await result_of_last_call(pilot)) == {"action": "decline"}


@pytest.mark.parametrize(("key", "action"), [("ctrl+d", "decline"), ("escape", "cancel")])
async def test_the_elicitation_is_declined_or_cancelled(
    asking: ServedMcp, key: str, action: str
) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await open_booking(pilot)
        await pilot.press(key)
        reply = json.loads(await result_of_last_call(pilot))
        assert not isinstance(app.screen, ElicitationScreen)
    assert reply == {"action": action, "data": None}


async def test_a_url_elicitation_shows_the_url_and_accept_answers(asking: ServedMcp) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await start_call(pilot, "visit")
        await wait_for(pilot, lambda: isinstance(app.screen, ElicitationScreen))
        await pilot.pause()
        shown = screen_text(app)
        assert "https://example.com/login" in shown and "does not open it" in shown
        await pilot.press("ctrl+s")
        assert json.loads(await result_of_last_call(pilot)) == {"action": "accept"}


async def test_the_sampling_dialog_shows_the_messages_and_sends_the_typed_reply(
    asking: ServedMcp,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await start_call(pilot, "ask_model", {"question": "Is [red]this[/red] red?"})
        await wait_for(pilot, lambda: isinstance(app.screen, SamplingScreen))
        await pilot.pause()
        shown = screen_text(app)
        assert "Is [red]this[/red] red?" in shown and "Be brief." in shown
        await pilot.press(*"No, it is text.", "ctrl+s")
        text = await result_of_last_call(pilot)
    assert text == "reply from human (fleet-tui): No, it is text."


async def test_declining_sampling_tells_the_server(asking: ServedMcp) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await start_call(pilot, "ask_model", {"question": "?"})
        await wait_for(pilot, lambda: isinstance(app.screen, SamplingScreen))
        await pilot.press("ctrl+d")
        text = await result_of_last_call(pilot)
    assert text.startswith("no reply:") and "declined" in text


async def test_roots_given_to_the_app_reach_the_server(asking: ServedMcp, tmp_path: Path) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]), roots=[str(tmp_path)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await start_call(pilot, "roots")
        roots = json.loads(await result_of_last_call(pilot))
    assert roots == [tmp_path.resolve().as_uri()]


async def test_quitting_while_a_dialog_waits_closes_the_app(asking: ServedMcp) -> None:
    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await open_booking(pilot)
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: app.return_code is not None, 15)
    assert app.return_code == 0


async def test_a_call_refused_until_a_page_is_opened_shows_the_page_to_copy(
    asking: ServedMcp,
) -> None:
    from fleet_tui.ui.screens.visit_screen import VisitScreen

    app = FleetTuiApp(McpTarget(urls=[asking.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await start_call(pilot, "linked")
        await wait_for(pilot, lambda: isinstance(app.screen, VisitScreen))
        await pilot.pause()
        shown = screen_text(app)
        assert "https://example.com/link?session=7" in shown
        assert "Link your [b]account[/b]" in shown  # the server's reason, literally
        await pilot.press("c")
        assert app.clipboard == "https://example.com/link?session=7"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, VisitScreen))
        record = app.controller.records[-1]
        assert "https://example.com/link?session=7" in record.result.text()
