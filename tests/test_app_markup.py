"""Broken and hostile markup from an env, everywhere the app shows env text: it is shown
literally and nothing parses it (a parser would crash on an unclosed tag, or run a click)."""

from __future__ import annotations

from textual.command import CommandInput, CommandList
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Select
from textual.widgets._toast import Toast

from fleet_tui.envs.base import Task
from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.tasks.verify import AdHocVerifier
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.session_browser import SessionBrowserScreen
from fleet_tui.ui.widgets.status_bar import StatusBar
from fleet_tui.ui.widgets.task_browser import TaskBrowser
from fleet_tui.ui.widgets.task_detail import TaskDetail
from fleet_tui.ui.widgets.task_features import TaskFeatures
from fleet_tui.ui.widgets.verdict import VerdictView
from tests.app_driver import SIZE, call, screen_text, wait_for
from tests.fixtures.markup_server import BROKEN_MARKUP, CUT_LENGTHS, cut_description
from tests.test_tasks_app import make_app, started, verdict_after


def region_text(app, region: Region) -> str:
    """What the terminal shows inside `region`."""
    lines = screen_text(app).split("\n")[region.y : region.bottom]
    return "\n".join(line[region.x : region.right] for line in lines)


def squeezed(text: str) -> str:
    """`text` without whitespace, so a line wrapped anywhere still matches."""
    return "".join(text.split())


def appearances(app, region: Region, text: str) -> int:
    """How many times `region` shows `text` literally (wrapped or not)."""
    return squeezed(region_text(app, region)).count(squeezed(text))


def toasted(app, text: str) -> bool:
    """Whether a toast shows `text` literally (toasts are mounted again as others come)."""
    return any(appearances(app, toast.content_region, text) for toast in app.screen.query(Toast))


async def wait_shown(pilot, widget: Widget, text: str, times: int = 1) -> None:
    """Wait until `widget` shows `text` literally `times` times (or more)."""
    try:
        await wait_for(
            pilot, lambda: appearances(pilot.app, widget.region, text) >= times, timeout=10
        )
    except AssertionError:
        shown = region_text(pilot.app, widget.region)
        raise AssertionError(f"{text!r} not shown {times} times in:\n{shown}") from None


async def test_broken_markup_from_an_env_is_shown_literally_everywhere(mcp_markup, tmp_path):
    session = tmp_path / "markup.jsonl"
    tasks = [Task(key=text, prompt=text, env_key="markup") for text in BROKEN_MARKUP]
    features = TaskFeatures(tasks=tasks, recorder=SessionRecorder(session))
    app = FleetTuiApp(McpTarget(urls=[mcp_markup.url]), recorder=features.recorder)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await started(pilot, features)
        browser, detail = app.query_one(TaskBrowser), app.query_one(TaskDetail)
        for text in BROKEN_MARKUP:
            assert browser.select(text)
            await wait_shown(pilot, browser, text)
            await wait_shown(pilot, detail.query_one("#task-heading"), text)  # the key
            # the prompt is Markdown by design (where `\\[` is an escaped bracket)
            assert detail.query_one("#task-prompt").source == text
        await pilot.press("f2")
        for text in BROKEN_MARKUP:
            await app.show_tool(text, {"choice": text})
            # the name in the title, the description, the field's description, the enum label
            await wait_shown(pilot, app.tool_panel, text, 4)
            app.tool_panel.focus_form()
            select = await wait_for(pilot, lambda: app.tool_panel.query(Select))
            await wait_shown(pilot, app.tool_panel.query_one(".field-name"), text)  # its title
            await wait_shown(pilot, select.first(), text)
            await wait_shown(pilot, app.tool_list, text)  # the name, and the description
            await wait_shown(pilot, app.tool_list, text[:20], 2)  # shortened to one line
            entry = await call(pilot, text, {"choice": text})
            assert entry.status == "ok", entry.message
            # the name in the title; the text and the chosen label in the body
            await wait_shown(pilot, app.result_view, text, 3)
            await pilot.press("ctrl+y")
            await wait_for(pilot, lambda text=text: toasted(app, text))
            app.clear_notifications()
        failed = await call(pilot, "shout")
        assert failed.status == "error"
        for text in BROKEN_MARKUP:
            await wait_shown(pilot, app.result_view, text)
        await pilot.press("f3")
        await pilot.pause()
        for text in BROKEN_MARKUP:
            await wait_shown(pilot, app.query_one("#sidebar"), text[:16])  # shortened
        await pilot.press("f1")
        await pilot.pause()
        await pilot.press("escape")
        for text in BROKEN_MARKUP:
            app.banner.show(f"Connection lost: {text}")
            await wait_shown(pilot, app.banner, text)
            app.controller.env.info.env_key, app.controller.env.info.instance_id = text, text[:12]
            app.refresh_status()
            await wait_shown(pilot, app.query_one(StatusBar), f"{text} inst {text[:12]}")
        await pilot.press("ctrl+p")
        palette = await wait_for(pilot, lambda: app.screen.query(CommandList))
        for text in BROKEN_MARKUP:  # the name in the title, the description as help
            await search_palette(pilot, palette.first(), text, f"Call tool {text}\n{text}")
        for length in CUT_LENGTHS:  # help cut at 120 characters, inside a tag
            shortened = cut_description(length)[:119] + "…"
            await search_palette(pilot, palette.first(), f"cut-{length}", shortened)
        await pilot.press("escape")
        app.push_screen(SessionBrowserScreen(session))
        events = await wait_for(pilot, lambda: app.screen.query("#session-events"))
        for text in BROKEN_MARKUP:
            await wait_shown(pilot, events.first(), text)  # each call
        assert app.is_running


async def search_palette(pilot, commands: CommandList, query: str, expected: str) -> None:
    """Search the open command palette for `query`; wait until it lists `expected`."""
    pilot.app.screen.query_one(CommandInput).value = query
    await wait_shown(pilot, commands, expected)


async def test_broken_markup_in_a_verdict(local_host, tmp_path):
    verifier = tmp_path / "check.py"
    verifier.write_text(
        f"TEXTS = {BROKEN_MARKUP!r}\n\n"
        "def check(env):\n"
        "    print('\\n'.join(TEXTS))\n"
        "    raise ValueError('\\n'.join(TEXTS))\n"
    )
    features = TaskFeatures(adhoc=AdHocVerifier(verifier), mode="local")
    app = make_app(local_host, features)
    async with app.run_test(size=SIZE) as pilot:
        panel = await started(pilot, features)
        panel.verify()
        verdict, _ = await verdict_after(pilot, panel, 0)
        assert verdict.error_type == "ValueError"
        for text in BROKEN_MARKUP:  # its error (what it printed follows, out of sight)
            await wait_shown(pilot, app.query_one(VerdictView), text)
        assert app.is_running
