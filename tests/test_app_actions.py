"""The app against real MCP servers (`--mcp`): command palette, help, copy as command."""

from __future__ import annotations

import io
import shlex
import socket

import pytest
from rich.console import Console
from textual import events
from textual.widgets import Static

from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.progress_panel import ProgressPanel
from tests.app_driver import SIZE, call, wait_connected, wait_for, wait_idle
from tests.cli_run import fleet_tui


async def test_palette_lists_actions_and_tools(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        titles = [e.title for e in app.palette_entries()]
        assert "Call tool echo" in titles
        assert any(t.startswith("Reset the env") for t in titles)
        assert "History: re-run the call" in titles
        assert "Result view: save the image as PNG (or the audio and binary contents)" in titles
        await call(pilot, "echo", {"text": "again"})
        rerun = next(e for e in app.palette_entries() if e.title == "History: re-run the call")
        await rerun.run()
        await wait_for(pilot, lambda: len(app.controller.records) == 2)
        await wait_idle(pilot)
        assert (
            app.controller.records[1].arguments == {"text": "again"}
            and app.controller.records[1].status == "ok"
        )
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"call tool pict")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.tool_panel.tool and app.tool_panel.tool.name == "picture")


async def test_help_lists_keys_of_the_focused_area(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        app.history.focus()
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen.area == "history"
        await pilot.press("escape")
        await pilot.pause()
        assert not hasattr(app.screen, "area")


async def test_f1_typed_right_after_f2_or_f3_shows_that_area(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        for key, area in (("f3", "history"), ("f2", "filter")):  # f2 focuses the tool filter
            for typed in (key, "f1"):  # both queued before the app's next turn
                app.post_message(events.Key(typed, None))
            await pilot.pause()
            assert app.screen.area == area
            await pilot.press("escape")
            await pilot.pause()


async def test_copy_command_reproduces_the_call(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("echo", {"text": "it's"})
        await pilot.pause()
        assert app.command_copy.current_command() == (
            f"fleet-tui call --mcp {two_servers.urls[0]} --mcp {two_servers.urls[1]} "
            '--args \'{"text":"it\'"\'"\'s"}\' -- echo'
        )


async def test_copy_command_of_a_form_with_schema_warnings_sends_unchecked(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("echo", {})  # `text` is required
        await pilot.pause()
        assert app.tool_panel.problems()
        command = app.command_copy.current_command()
    assert command == (
        f"fleet-tui call --mcp {two_servers.urls[0]} --mcp {two_servers.urls[1]} "
        "--unchecked -- echo"
    )
    result = fleet_tui(*shlex.split(command)[1:])  # as pasted into a shell
    assert "break its schema" not in result.stderr
    assert result.returncode == 1, result.stderr  # sent: the server's own refusal


@pytest.fixture
def silent_url():
    """A TCP port that accepts connections and never answers (a hung server)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"


async def test_connecting_shows_progress_and_esc_cancels_it(silent_url):
    app = FleetTuiApp(McpTarget(urls=[silent_url]))
    async with app.run_test(size=SIZE) as pilot:
        panel = app.query_one(ProgressPanel)
        await wait_for(pilot, lambda: panel.shown and panel.lines)
        assert "Connecting" in panel.lines[0]
        await wait_for(
            pilot, lambda: "0:01 elapsed" in str(panel.query_one("#progress-elapsed").content)
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.banner.shown)
        assert "cancelled" in app.banner.message and not panel.shown
        assert app.controller.env is None and app.controller.state == "idle"
        assert app.banner.action == "reconnect"


async def test_the_palette_lists_fleet_tui_first_then_textual_with_one_quit_and_no_fake_keys(
    two_servers,
):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.5)
        listed = app.screen.query_one("CommandList")
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        titles = [prompt.split("\n")[0] for prompt in prompts]
        assert titles[0].startswith("Quit (closes what fleet-tui created)")
        assert [t for t in titles if "Quit" in t] == [titles[0]]
        theme = titles.index("Theme")
        assert theme > titles.index("Call tool echo")  # Textual's commands after the tools
        assert "Maximize" not in titles and "key ctrl+p" not in "\n".join(prompts)
        resources = next(p for p in prompts if p.startswith("Show the MCP resources"))
        assert "key" not in resources  # palette only: no key to show
        assert not any(t.startswith("Show the tasks") for t in titles)  # no --tasks here


async def test_f1_lists_only_keys_that_work_here_and_explains_the_marks(two_servers):
    app = FleetTuiApp(two_servers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await pilot.press("f1")
        await pilot.pause()
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(app.screen.query_one(Static).content)
        shown = console.export_text()
        assert "Show the history" in shown and "Zoom" in shown
        absent = ["Show the tasks", "Run the task's verifier", "Typing mode", "Show the Agent pane"]
        assert not [words for words in absent if words in shown]  # no --tasks, agent, computer
        assert "Marks" in shown and "♥ pending" in shown and "destructive" in shown
