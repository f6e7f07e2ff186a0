"""`--protocol latest`: the newest MCP revision the SDK speaks (2026-07-28, by
`server/discover`) where a server offers it, the initialize handshake where it does not; tools,
calls, resources and prompts work on it, and what fleet-tui does not yet speak on it (logging
levels, resource subscriptions) is refused in plain words."""

from __future__ import annotations

import json

import pytest

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.protocol_revision import speaking
from fleet_tui.envs.targets import McpTarget
from tests.cli_run import fleet_tui


def test_info_says_the_newest_revision_where_the_server_offers_it(mcp_alpha):
    latest = fleet_tui("info", "--mcp", mcp_alpha.url, "--protocol", "latest")
    default = fleet_tui("info", "--mcp", mcp_alpha.url)

    assert latest.returncode == 0, latest.stderr
    assert "  Protocol      2026-07-28" in latest.stdout.splitlines()
    assert "  Server        alpha" in latest.stdout.splitlines()
    assert "  Protocol      2025-11-25" in default.stdout.splitlines()


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


async def test_a_log_level_is_refused_in_plain_words_and_not_sent(talkative):
    with speaking("latest"):
        session = SessionController(McpTarget(urls=[talkative.url]))
        await session.connect()
    try:
        (problem,) = await session.set_log_level("debug")
        assert "logging/setLevel is not on protocol 2026-07-28 in fleet-tui yet" in problem
        assert talkative.levels == []
    finally:
        await session.close_env()
