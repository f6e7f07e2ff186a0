"""The footer fits 120 columns whatever has focus (every key stays in F1 help and the palette),
and 80 columns in its compact look (without the palette's hint, which F1 lists); it offers
the keys that work on the target: not a reset on plain MCP servers, Info everywhere."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from fleet_tui.envs.targets import McpTarget, OpenEnvTarget
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.widgets.field_preview import PreviewWidget
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import call, local_target, wait_connected, wait_for, wait_idle

WIDTH = 120


def footer_laid_out(app: FleetTuiApp) -> bool:
    keys = list(app.screen.query(FooterKey))
    return any(k.has_class("-command-palette") for k in keys) and all(k.region for k in keys)


def footer_overflow(app: FleetTuiApp) -> list[str]:
    """Footer keys drawn under the command-palette hint or past the screen edge."""
    keys = list(app.screen.query(FooterKey))
    [palette] = [key for key in keys if key.has_class("-command-palette")]
    limit = palette.region.x
    overflow = [
        f"{key.key_display} {key.description}"
        for key in keys
        if key is not palette and key.region.right > limit
    ]
    if palette.region.right > WIDTH or palette.region.width < len("^p Palette"):
        overflow.append("command palette hint")
    return overflow


def footer_keys_laid_out(app: FleetTuiApp) -> bool:
    keys = list(app.screen.query(FooterKey))
    return bool(keys) and all(k.region for k in keys)


def compact_overflow(app: FleetTuiApp, width: int) -> list[str]:
    """Footer keys drawn past the screen edge (no palette hint in the compact footer)."""
    keys = list(app.screen.query(FooterKey))
    assert keys and not any(k.has_class("-command-palette") for k in keys)
    return [f"{k.key_display} {k.description}" for k in keys if k.region.right > width]


async def assert_fits(pilot, widget: Widget, area: str) -> None:
    widget.focus()
    await pilot.pause(0.2)
    assert pilot.app.focused is widget, area
    await wait_for(pilot, lambda: footer_laid_out(pilot.app))
    assert footer_overflow(pilot.app) == [], area


async def form_field(pilot, app: FleetTuiApp) -> Widget:
    """The form's first editor (focusing the form builds it from its preview)."""
    app.tool_panel.focus_form()
    holder = app.tool_panel.query_one("#form-holder")

    def editor_focused() -> bool:
        focused = app.focused
        return (
            focused is not None
            and holder in focused.ancestors
            and not isinstance(focused, PreviewWidget)
        )

    await wait_for(pilot, editor_focused)
    assert app.focused is not None
    return app.focused


async def test_footer_fits_in_the_tool_use_areas(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"))
    async with app.run_test(size=(WIDTH, 35)) as pilot:
        await wait_connected(pilot)
        await call(pilot, "search_issues", {"query": {"text": "login"}})
        await assert_fits(pilot, app.query_one("#tool-filter", Input), "tools")
        await assert_fits(pilot, await form_field(pilot, app), "form")
        app.action_show_history()
        await assert_fits(pilot, app.history, "history")
        app.action_show_tools()
        await assert_fits(pilot, app.result_view.query_one("TabbedContent Tabs"), "result")


async def test_footer_fits_in_the_computer_use_areas(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "desktop-todo"))
    async with app.run_test(size=(WIDTH, 35)) as pilot:
        await wait_connected(pilot)
        await wait_idle(pilot)
        await assert_fits(pilot, app.screenshot_pane, "screenshot")
        await assert_fits(pilot, await form_field(pilot, app), "form")


async def test_the_compact_footer_fits_80_columns_in_the_tool_use_areas(local_host):
    app = FleetTuiApp(local_target(local_host.base_url, "tracker"))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_connected(pilot)
        await call(pilot, "search_issues", {"query": {"text": "login"}})
        for area, widget in [
            ("tools", app.query_one("#tool-filter", Input)),
            ("form", await form_field(pilot, app)),
            ("history", app.history),
            ("result", app.result_view.query_one("TabbedContent Tabs")),
        ]:
            if area == "history":
                app.action_show_history()
            widget.focus()
            await pilot.pause(0.2)
            await wait_for(pilot, lambda: footer_keys_laid_out(app))
            assert compact_overflow(app, 80) == [], area


def footer_keys(app: FleetTuiApp) -> list[str]:
    """The footer's keys as drawn: `key description`, the command-palette hint left out."""
    return [
        f"{key.key_display} {key.description}"
        for key in app.screen.query(FooterKey)
        if not key.has_class("-command-palette")
    ]


async def test_on_plain_mcp_servers_the_footer_offers_what_works_there(mcp_alpha):
    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]))
    async with app.run_test(size=(WIDTH, 35)) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: footer_laid_out(app))
        keys = footer_keys(app)
        assert "^f Info" in keys, keys
        assert not any("Reset" in key or "Tasks" in key for key in keys), keys
        assert footer_overflow(app) == []


async def test_on_an_openenv_server_the_footer_offers_its_reset_and_tasks(
    counter_openenv_server,
):
    features = TaskFeatures(recorder=None)
    app = FleetTuiApp(OpenEnvTarget(url=counter_openenv_server.base_url), recorder=None)
    app.extensions.append(features.install)
    async with app.run_test(size=(WIDTH, 35)) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: "f6 Tasks" in footer_keys(app))
        keys = footer_keys(app)
        assert {"^r Reset", "f6 Tasks", "^f Info"} <= set(keys), keys
        # laid out again once the extension's keys came: fitting, after that
        await wait_for(pilot, lambda: footer_laid_out(app) and footer_overflow(app) == [])


async def test_the_footer_mounts_its_keys_again_only_when_the_keys_shown_change(mcp_alpha):
    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]))
    async with app.run_test(size=(WIDTH, 35)) as pilot:
        await wait_connected(pilot)
        app.query_one("#tool-filter", Input).focus()
        await wait_for(pilot, lambda: footer_laid_out(app))
        mounted, shown = set(app.screen.query(FooterKey)), footer_keys(app)

        app.screen.refresh_bindings()  # the screen signals changed bindings; none changed
        await wait_idle(pilot)
        assert set(app.screen.query(FooterKey)) == mounted

        app.action_show_history()
        app.history.focus()
        await wait_for(pilot, lambda: footer_keys(app) != shown)
        assert not mounted & set(app.screen.query(FooterKey))
