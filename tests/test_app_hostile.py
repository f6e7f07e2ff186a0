"""Hostile and broken input: markup and escape sequences from an env, a malformed tool schema,
a reply the server cannot send."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from mcp.server.mcpserver import Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from fleet_tui.envs.base import EndpointState
from fleet_tui.targets import Target
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for
from tests.fixtures.mcp_servers import free_port

EVIL_NAME = "[/]evil[bold red]"
EVIL_TEXT = (
    "[/] [bold red]red?[/bold red] \x1b[31mESC-red\x1b[0m \x1b]0;pwned\x07 [@click=app.quit]q[/]"
)


def hostile_server() -> MCPServer:
    server = MCPServer("hostile", log_level="WARNING")

    def evil(text: str = "[/]") -> str:
        return EVIL_TEXT + " " + text

    server.add_tool(evil, name=EVIL_NAME, description="\x1b[2J[blink]desc[/blink] [/]")

    @server.tool(description="Fails with [/] markup and \x1b[1mescapes\x1b[0m.")
    def explode() -> str:
        raise ToolError("[/][red]boom\x1b[5m")

    @server.tool(description="An image whose bytes are not an image.")
    def broken_image() -> Image:
        return Image(data=b"\x89PNG\r\n\x1a\n truncated", format="png")

    @server.tool(description="A reply the server cannot encode (a lone surrogate).")
    def unencodable() -> str:
        return "half of a pair: \ud800"

    @server.tool(description="A tool whose input schema is broken.")
    def broken(value: str = "") -> str:
        return f"got {value!r}"

    server._tool_manager.get_tool("broken").parameters = {
        "type": "object",
        "properties": {"value": {"type": 17, "enum": "nope", "$ref": "#/nowhere"}},
        "required": ["value"],
        "allOf": 5,
    }
    return server


@pytest.fixture(scope="module")
def hostile_url() -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(
        hostile_server().streamable_http_app(), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(timeout=5)


async def test_hostile_names_results_and_errors_are_shown_literally(hostile_url):
    app = FleetTuiApp(Target(mcp=[hostile_url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert EVIL_NAME in [t.name for t in app.tools]
        prompts = [str(o.prompt) for o in app.query_one("#tool-options").options]
        assert any(EVIL_NAME in p for p in prompts)
        assert not any("\x1b" in p for p in prompts)
        entry = await call(pilot, EVIL_NAME, {"text": "[bold]x"})
        assert entry.status == "ok"
        shown = rendered_text(app)
        assert "[/] [bold red]red?[/bold red]" in shown and "[bold]x" in shown
        assert "\x1b" not in shown and "ESC-red" in shown
        failed = await call(pilot, "explode")
        assert failed.status == "error" and "[/][red]boom" in rendered_text(app)
        assert app.result_view.has_class("-error")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"evil")
        await pilot.pause(0.5)
        await pilot.press("escape")
        await pilot.press("f1")
        await pilot.pause()
        await pilot.press("escape")
        broken = await call(pilot, "broken_image")
        assert broken.status == "ok"
        [view] = app.query("#rendered ImageView")
        assert view.picture is None and "cannot decode image" in view.error
        svg = app.export_screenshot()
        assert "\x1b" not in svg and app.is_running


async def test_malformed_schema_still_gives_a_usable_form(hostile_url):
    app = FleetTuiApp(Target(mcp=[hostile_url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await app.show_tool("broken")
        await pilot.pause()
        assert app.tool_panel.form is not None
        entry = await call(pilot, "broken", {"value": "ok"})
        assert entry.arguments == {"value": "ok"}
        assert "got 'ok'" in rendered_text(app)
        await wait_for(pilot, lambda: app.is_running)


async def test_an_env_echoing_the_api_key_never_shows_it(mcp_alpha, monkeypatch):
    secret = "sk-live-shown-nowhere-4242"
    monkeypatch.setenv("FLEET_API_KEY", secret)
    app = FleetTuiApp(Target(mcp=[mcp_alpha.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "echo", {"text": f"key {secret}"})
        assert entry.status == "ok"
        assert "key [redacted]" in rendered_text(app) and secret not in rendered_text(app)
        for tab in ("tab-raw", "tab-structured"):
            app.result_view.query_one("TabbedContent").active = tab
            await pilot.pause()
            assert secret not in app.export_screenshot(), tab
        assert secret not in app.result_view.query_one("#raw").text


async def test_a_reply_the_server_cannot_encode_fails_that_call_only(hostile_url):
    app = FleetTuiApp(Target(mcp=[hostile_url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        failed = await call(pilot, "unencodable")
        assert failed.status == "error" and failed.result.error_kind == "no answer"
        assert "without an answer" in rendered_text(app)
        assert [e.state for e in app.env.endpoints()] == [EndpointState.UP]
        assert not app.banner.shown
        after = await call(pilot, "broken", {"value": "still here"})
        assert after.status == "ok" and "still here" in rendered_text(app)
        assert [entry.tool for entry in app.entries] == ["unencodable", "broken"]
