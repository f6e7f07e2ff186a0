"""The session browser lists the recent sessions of the state folder (newest first: target,
calls, verdicts, time), filtered as you type; a folder's path lists that folder; enter or a
chosen row opens a session's events. ctrl+k leaves a text field's own ctrl+k alone."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from textual.app import App
from textual.widgets import DataTable, Input

from fleet_tui.private_files import make_private_dir
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import sessions_dir
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.session_browser import SessionBrowserScreen
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, wait_connected, wait_for

GOLD = Path(__file__).parent / "data" / "gold"
OLDER, NEWER = "tracker-plan-dark-mode", "todo-add-buy-milk"


def copy_sessions(folder: Path) -> None:
    """Two gold sessions, NEWER written after OLDER."""
    make_private_dir(folder)
    for age, name in ((2000, OLDER), (1000, NEWER)):
        copied = folder / f"{name}.jsonl"
        shutil.copy(GOLD / f"{name}.jsonl", copied)
        stamp = copied.stat().st_mtime - age
        os.utime(copied, (stamp, stamp))


async def shown(pilot, selector: str):
    """The browser's widget `selector`, once the browser is on screen."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen))
    await pilot.pause()
    return app.screen.query_one(selector)


def rows(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(r)] for r in range(table.row_count)]


async def test_the_recent_sessions_are_listed_newest_first_and_filtered():
    copy_sessions(sessions_dir())  # the suite's own state folder (tests/conftest.py)
    app = App()
    async with app.run_test(size=(140, 30)) as pilot:
        app.push_screen(SessionBrowserScreen())
        listing = await shown(pilot, "#session-list")
        await wait_for(pilot, lambda: listing.row_count >= 2)
        listed = rows(listing)
        names = [row[-1] for row in listed]
        assert names.index(f"{NEWER}.jsonl") < names.index(f"{OLDER}.jsonl")
        newer = listed[names.index(f"{NEWER}.jsonl")]
        calls = len(load_session(GOLD / f"{NEWER}.jsonl").steps())
        assert "desktop-todo" in newer[1] and newer[2] == str(calls) and newer[3] == "1 pass"
        assert app.focused is app.screen.query_one("#session-path", Input)
        await pilot.press(*"tracker")
        assert [row[-1] for row in rows(listing)] == [f"{OLDER}.jsonl"]
        await pilot.press("enter")  # opens what the filter leaves
        events = app.screen.query_one("#session-events", DataTable)
        await wait_for(pilot, lambda: events.row_count)
        assert not listing.display
        assert events.row_count == len(load_session(GOLD / f"{OLDER}.jsonl").events)


async def test_a_folders_path_lists_its_sessions(tmp_path):
    copy_sessions(tmp_path / "elsewhere")
    (tmp_path / "empty").mkdir()
    app = App()
    async with app.run_test(size=(140, 30)) as pilot:
        app.push_screen(SessionBrowserScreen(tmp_path / "empty"))
        box = await shown(pilot, "#session-path")
        assert "No recorded sessions" in str(app.screen.query_one("#session-problems").content)
        box.value = str(tmp_path / "elsewhere")
        box.focus()
        await pilot.press("enter")
        listing = app.screen.query_one("#session-list", DataTable)
        assert [row[-1] for row in rows(listing)] == [f"{NEWER}.jsonl", f"{OLDER}.jsonl"]


async def test_ctrl_k_in_a_text_field_is_the_fields_and_opens_sessions_elsewhere(two_servers):
    app = FleetTuiApp(two_servers)
    app.extensions.append(TaskFeatures().install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        filter_box = app.query_one("#tool-filter", Input)
        filter_box.focus()
        await pilot.press(*"echo", "home", "ctrl+k")  # the box's own key: delete to the end
        await pilot.pause()
        assert filter_box.value == ""
        assert not isinstance(app.screen, SessionBrowserScreen)
        await pilot.press("f3", "ctrl+k")  # from the history, no text field
        await wait_for(pilot, lambda: isinstance(app.screen, SessionBrowserScreen))


async def test_the_chosen_session_is_exported_as_a_page_and_offered_for_playback(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    app = App()
    async with app.run_test(size=(140, 30), notifications=True) as pilot:
        app.push_screen(SessionBrowserScreen(GOLD / f"{NEWER}.jsonl"))
        events = await shown(pilot, "#session-events")
        await wait_for(pilot, lambda: events.row_count)
        await pilot.press("e")
        page = tmp_path / f"{NEWER}.html"
        await wait_for(pilot, lambda: page.exists() and "</html>" in page.read_text(), 60)
        assert 'class="step call"' in page.read_text()
        await pilot.press("p")  # a test's terminal cannot be handed over: the command is told
        told = "\n".join(str(n.message) for n in app._notifications)
        assert f"fleet-tui replay {GOLD / NEWER}.jsonl --play" in told
