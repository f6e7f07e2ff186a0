"""Room to read: the sidebar's width follows the terminal, alt+←/→ and a drag of its edge change
it and it is remembered in the next run; ctrl+z gives the focused side the whole body and back."""

from __future__ import annotations

from pathlib import Path

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.layout import MIN_WORK
from fleet_tui.ui.preferences import Preferences
from fleet_tui.ui.screens.main_screen import MainScreen
from tests.app_driver import wait_connected
from tests.fixtures.talkative import Talkative


def sidebar_width(app: FleetTuiApp) -> int:
    return app.query_one("#sidebar").outer_size.width


async def test_the_default_width_scales_with_the_terminal(talkative: Talkative) -> None:
    widths = {}
    for columns in (80, 120, 160, 200):
        app = FleetTuiApp(McpTarget(urls=[talkative.url]))
        async with app.run_test(size=(columns, 30)) as pilot:
            await wait_connected(pilot)
            widths[columns] = sidebar_width(app)
    assert widths == {80: 36, 120: 36, 160: 64, 200: 80}


async def test_keys_and_a_drag_set_the_width_and_the_next_run_keeps_it(
    talkative: Talkative, tmp_path: Path
) -> None:
    kept = tmp_path / "preferences.json"
    app = FleetTuiApp(McpTarget(urls=[talkative.url]), preferences=Preferences(kept))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_connected(pilot)
        await pilot.press("alt+right", "alt+right")
        await pilot.pause()
        assert sidebar_width(app) == 44
        await pilot.press("alt+left")
        await pilot.pause()
        assert sidebar_width(app) == 40
        await pilot.mouse_down("#splitter")
        await pilot.hover("#body", offset=(70, 5))
        await pilot.mouse_up("#body", offset=(70, 5))
        await pilot.pause()
        assert sidebar_width(app) == 70
        await pilot.press(*["alt+right"] * 10)  # never past the work area's share
        await pilot.pause()
        assert sidebar_width(app) == 120 - MIN_WORK
    again = FleetTuiApp(McpTarget(urls=[talkative.url]), preferences=Preferences(kept))
    async with again.run_test(size=(120, 30)) as pilot:
        await wait_connected(pilot)
        assert sidebar_width(again) == 120 - MIN_WORK


def test_an_unreadable_preferences_file_gives_the_defaults(tmp_path: Path) -> None:
    kept = tmp_path / "preferences.json"
    kept.write_text("{not json")
    assert Preferences(kept).sidebar_width(computer=False) is None
    kept.write_text('{"sidebar_width": "wide"}')
    assert Preferences(kept).sidebar_width(computer=False) is None


async def test_ctrl_z_zooms_the_focused_side_and_back(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_connected(pilot)
        await pilot.press("f3", "ctrl+z")  # the history, in the sidebar
        await pilot.pause()
        assert sidebar_width(app) == 120 and not app.query_one("#work").display
        assert "ctrl+z" in str(app.query_one("#zoom-bar").render())
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert sidebar_width(app) == 36 and app.query_one("#work").display
        app.tool_panel.focus_form()
        await pilot.press("ctrl+z")  # the form alone
        await pilot.pause()
        assert not app.query_one("#sidebar").display and not app.result_view.display
        assert app.tool_panel.outer_size.width == 120
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.query_one("#sidebar").display and sidebar_width(app) == 36
        assert app.result_view.display
        app.result_view.query_one("Tabs").focus()
        await pilot.press("ctrl+z")  # the result alone: every row of the body
        await pilot.pause()
        assert not app.tool_panel.display and not app.query_one("#sidebar").display
        assert app.result_view.outer_size == (120, app.query_one("#body").size.height)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.tool_panel.display and app.query_one("#sidebar").display


async def test_the_app_opens_on_its_main_screen_which_fits_a_resize_under_a_dialog(
    talkative: Talkative,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_connected(pilot)
        assert app.screen_stack == [app.main] and isinstance(app.main, MainScreen)
        await pilot.press("f1")
        await pilot.pause()
        await pilot.resize_terminal(200, 30)
        await pilot.pause()
        assert sidebar_width(app) == 80  # app.query_one queries the main screen under help
        assert app.main.has_class("-short")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main and sidebar_width(app) == 80
