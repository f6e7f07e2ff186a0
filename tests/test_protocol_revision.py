"""`--protocol latest`: the newest MCP revision the SDK speaks (2026-07-28, by
`server/discover`) where a server offers it, the initialize handshake where it does not; tools,
calls, resources and prompts work on it, the log level goes with each request, and what
fleet-tui does not yet speak on it (changing that level, resource subscriptions) is refused in
plain words."""

from __future__ import annotations

import json

import pytest

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.protocol_revision import speaking
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui.screens.endpoints import EndpointsScreen
from tests.app_driver import SIZE, screen_text, wait_connected, wait_for
from tests.cli_run import fleet_tui


def test_info_says_the_newest_revision_where_the_server_offers_it(mcp_alpha):
    latest = fleet_tui("info", "--mcp", mcp_alpha.url, "--protocol", "latest")
    default = fleet_tui("info", "--mcp", mcp_alpha.url)

    assert latest.returncode == 0, latest.stderr
    assert "  Protocol      2026-07-28" in latest.stdout.splitlines()
    assert "  Server        alpha" in latest.stdout.splitlines()
    assert "  Protocol      2025-11-25" in default.stdout.splitlines()


async def test_the_apps_info_view_says_the_newest_revision(mcp_alpha):
    from fleet_tui.ui.app import FleetTuiApp

    with speaking("latest"):  # what `--protocol latest` sets around the app's run
        app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]))
        async with app.run_test(size=SIZE) as pilot:
            await wait_connected(pilot)
            await pilot.press("ctrl+f")
            await wait_for(pilot, lambda: isinstance(app.screen, EndpointsScreen))
            await wait_for(pilot, lambda: "Protocol      2026-07-28" in screen_text(app))


def test_tools_are_listed_and_called_on_the_newest_revision(mcp_alpha):
    tools = fleet_tui("tools", "--mcp", mcp_alpha.url, "--protocol", "latest", "--json")
    call = fleet_tui(
        "call", "--mcp", mcp_alpha.url, "--protocol", "latest", "add", "--args", '{"a": 2, "b": 3}'
    )

    assert tools.returncode == 0, tools.stderr
    names = {tool["name"] for tool in json.loads(tools.stdout)["tools"]}
    assert {"echo", "add", "whoami"} <= names
    assert call.returncode == 0, call.stderr
    assert call.stdout.splitlines()[0] == "5"


def test_a_resource_is_read_and_a_prompt_got_on_the_newest_revision(catalog_mcp):
    info = fleet_tui("info", "--mcp", catalog_mcp.url, "--protocol", "latest")
    read = fleet_tui("read", "--mcp", catalog_mcp.url, "--protocol", "latest", "memo://items/apple")
    listed = fleet_tui("resources", "--mcp", catalog_mcp.url, "--protocol", "latest")
    prompt = fleet_tui(
        "prompt", "--mcp", catalog_mcp.url, "--protocol", "latest", "greet", "-a", "name=Ada"
    )

    assert "  Protocol      2026-07-28" in info.stdout.splitlines()
    assert read.returncode == 0 and "item apple" in read.stdout, read.stderr
    assert listed.returncode == 0 and "memo://notes" in listed.stdout, listed.stderr
    assert prompt.returncode == 0 and "Ada" in prompt.stdout, prompt.stderr


def test_a_server_without_discover_gets_the_handshake(everything):
    result = fleet_tui("info", "--stdio", everything.stdio_command, "--protocol", "latest")

    assert result.returncode == 0, result.stderr
    assert "  Protocol      2025-11-25" in result.stdout.splitlines()


async def test_a_resource_subscription_is_refused_in_plain_words(catalog_mcp):
    with speaking("latest"):
        session = SessionController(McpTarget(urls=[catalog_mcp.url]))
        await session.connect()
    try:
        catalog = session.catalog()
        assert catalog is not None
        with pytest.raises(EnvError, match="resources/subscribe is not on protocol 2026-07-28"):
            await catalog.subscribe("memo://notes")
    finally:
        await session.close_env()


def test_the_log_level_goes_with_each_request_and_no_set_level_is_sent(talkative):
    def say(text: str, level: str) -> str:
        result = fleet_tui(
            "call", "--mcp", talkative.url, "--protocol", "latest", "--log-level", "warning",
            "say", "-a", f"text={text}", "-a", f"level={level}",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return result.stderr

    loud, quiet = say("disk full", "error"), say("all fine", "info")

    assert "[error] talk: disk full" in loud.splitlines()
    assert "all fine" not in quiet
    assert "log level" not in loud + quiet
    assert talkative.levels == []


async def test_another_log_level_while_connected_is_refused_in_plain_words(talkative):
    with speaking("latest"):
        session = SessionController(McpTarget(urls=[talkative.url]))
        assert await session.set_log_level("warning") == []
        await session.connect()
    try:
        assert await session.set_log_level("warning") == []
        (problem,) = await session.set_log_level("debug")
        assert "changing the log level is not on protocol 2026-07-28 in fleet-tui yet" in problem
        assert "reconnect to use debug" in problem
        assert talkative.levels == []
    finally:
        await session.close_env()


def test_an_unknown_protocol_is_refused_before_connecting():
    run = fleet_tui("--mcp", "http://127.0.0.1:1/mcp", "--protocol", "newest")

    assert run.returncode == 2
    assert "--protocol: invalid choice: 'newest' (choose from 'handshake', 'latest')" in run.stderr
