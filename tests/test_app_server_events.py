"""The app shows what a real server says on its own: a progress bar for the running call, its
log messages in the Log pane (with a level filter that also asks the server), and tools that
appear after a list change, without losing what was typed in the open form."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import ProgressBar, RichLog, Select, Static

from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.events import LogEvent
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.server_log import ServerLogPane
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, screen_text, wait_connected, wait_for, wait_idle
from tests.fixtures.talkative import Talkative


async def say(pilot: Pilot, text: str, level: str) -> None:
    """Call the server's `say` tool, which logs `text` at `level`."""
    pilot.app.start_call("say", {"text": text, "level": level})
    await wait_idle(pilot)


async def test_a_slow_call_shows_the_servers_progress(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("slow", {"steps": 4})
        await pilot.pause()
        await pilot.click("#call-button")
        bar = app.query_one("#call-progress-bar", ProgressBar)
        await wait_for(pilot, lambda: bar.progress == 3)
        assert bar.total == 4
        assert app.query_one("#call-progress").display
        message = app.query_one("#call-progress-message", Static)
        assert str(message.content) == "step 3 of 4"
        talkative.gate.set()
        await wait_idle(pilot)
        assert app.controller.records[-1].status == "ok"
        assert not app.query_one("#call-progress").display


async def test_log_messages_show_in_the_log_pane_filtered_by_level(
    talkative: Talkative,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        pane = app.query_one(ServerLogPane)
        await say(pilot, "just so you know", "info")
        await say(pilot, "it broke", "error")
        await wait_for(pilot, lambda: len(pane.entries) == 2)
        await pilot.press("f9")
        await pilot.pause()
        assert app.query_one("#sidebar").active == "pane-log"
        lines = app.query_one("#log-lines", RichLog)
        text = "".join(line.text for line in lines.lines)
        assert "just so you know" in text and "it broke" in text
        app.query_one("#log-level", Select).value = "error"
        await wait_for(pilot, lambda: talkative.levels == ["error"])
        await pilot.pause()
        assert [entry.data for entry in pane.shown()] == ["it broke"]
        text = "".join(line.text for line in lines.lines)
        assert "it broke" in text and "just so you know" not in text
        assert str(app.query_one("#log-count", Static).content) == "1/2 messages from error up"


async def test_empty_log_and_history_panes_say_what_will_appear(talkative: Talkative) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("f3")
        await pilot.pause()
        assert "No calls yet" in screen_text(app)
        await pilot.press("f9")
        await pilot.pause()
        lines = app.query_one("#log-lines", RichLog)
        assert "No log messages yet" in "".join(line.text for line in lines.lines)
        pane = app.query_one(ServerLogPane)
        await say(pilot, "first words", "info")
        await wait_for(pilot, lambda: "first words" in "".join(line.text for line in lines.lines))
        assert "No log messages yet" not in "".join(line.text for line in lines.lines)
        app.query_one("#log-level", Select).value = "error"
        await wait_for(pilot, lambda: not pane.shown())
        await pilot.pause()
        assert "below error" in "".join(line.text for line in lines.lines)
        await pilot.press("f3")  # the call that logged is in the history
        await pilot.pause()
        assert "No calls yet" not in screen_text(app)


async def type_into_echo(pilot: Pilot, text: str) -> None:
    """Once connected, open echo's form and type `text` into its first field."""
    await wait_connected(pilot)
    await pilot.app.show_tool("echo")
    await pilot.pause()
    pilot.app.tool_panel.focus_form()
    await pilot.press(*text)


async def test_a_new_tool_appears_and_the_open_form_keeps_its_input(
    talkative: Talkative,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await type_into_echo(pilot, "half typed")
        assert app.tool_panel.arguments()["text"] == "half typed"
        app.start_call("grow", {"name": "fresh"})
        await wait_for(pilot, lambda: "fresh" in [t.name for t in app.tool_list.tools])
        await wait_idle(pilot)
        assert app.tool_panel.tool.name == "echo"
        assert app.tool_panel.arguments()["text"] == "half typed"
        assert app.controller.tool_named("fresh") is not None


async def test_the_open_form_follows_its_tool_when_it_changes_or_goes(
    talkative: Talkative,
) -> None:
    app = FleetTuiApp(McpTarget(urls=[talkative.url]))
    async with app.run_test(size=SIZE) as pilot:
        await type_into_echo(pilot, "kept")
        app.start_call("reshape", {})
        await wait_for(pilot, lambda: "loud" in app.tool_panel.tool.input_schema["properties"])
        await wait_idle(pilot)
        assert app.tool_panel.arguments()["text"] == "kept"  # rebuilt for the new schema
        app.start_call("drop", {})
        await wait_for(pilot, lambda: "echo" not in [t.name for t in app.tool_list.tools])
        await wait_idle(pilot)
        assert app.tool_panel.border_subtitle == "no longer offered by its server"
        assert app.tool_panel.tool.name == "echo"
        assert app.tool_panel.arguments()["text"] == "kept"


async def test_log_messages_are_recorded_in_the_session_file(
    talkative: Talkative, tmp_path: Path
) -> None:
    features = TaskFeatures(recorder=SessionRecorder(tmp_path / "s.jsonl"))
    app = FleetTuiApp(McpTarget(urls=[talkative.url]), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await say(pilot, "worth keeping", "warning")
        await wait_for(pilot, lambda: app.query_one(ServerLogPane).entries)
    features.close()
    logs = [e for e in load_session(tmp_path / "s.jsonl").events if isinstance(e, LogEvent)]
    assert [(e.endpoint, e.level, e.logger, e.data) for e in logs] == [
        (talkative.url, "warning", "talk", "worth keeping")
    ]
