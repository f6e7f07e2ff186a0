"""`fleet-tui info`: each endpoint as its server described itself (name, title, version,
website, protocol, capabilities, instructions), its hostile text shown literally and bounded;
and the roots offered, which a session can change while connected."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from fleet_tui.commands.client_options import HeadlessAnswers
from fleet_tui.controller import SessionController
from fleet_tui.envs.server_info import MAX_CAPABILITIES, MAX_INSTRUCTIONS, capability_lines
from fleet_tui.envs.targets import McpTarget
from tests.cli_run import fleet_tui
from tests.fixtures.info_server import HOSTILE_INSTRUCTIONS, LONG_INSTRUCTIONS
from tests.test_transports import STDIO_COMMAND


def test_info_shows_the_server_as_it_described_itself_with_its_text_literal(mcp_instructed):
    result = fleet_tui("info", "--mcp", mcp_instructed.url)

    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  Server        instructed [b]server[/b] 3.1.4" in lines
    assert "  Title         Instructed ␛[1mTitle" in lines
    assert "  Website       https://example.com/instructed" in lines
    assert "  Protocol      2025-11-25" in lines
    assert any(line.startswith("  Capabilities  tools") for line in lines)
    assert "    Call [bold red]x[/] first." in lines
    link = "[link=https://evil.example]the docs[/link]"
    assert f"    See {link} and [@click=app.quit]quit[/]." in lines
    assert "    ␛[31mred by escape␛[0m, and a lone [/]" in lines
    assert "\x1b" not in result.stdout


def test_info_json_gives_the_initialize_result_and_the_roots(mcp_instructed, tmp_path):
    result = fleet_tui("info", "--mcp", mcp_instructed.url, "--root", str(tmp_path), "--json")

    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    (endpoint,) = data["endpoints"]
    server = endpoint["server"]
    assert (server["name"], server["version"]) == ("instructed [b]server[/b]", "3.1.4")
    assert server["websiteUrl"] == "https://example.com/instructed"
    assert server["instructions"] == HOSTILE_INSTRUCTIONS
    assert server["capabilities"]["tools"] == {"listChanged": False}
    assert data["roots"] == [tmp_path.as_uri()]


def test_instructions_past_64_kb_are_cut_saying_so(mcp_long_instructions):
    text = fleet_tui("info", "--mcp", mcp_long_instructions.url)
    data = fleet_tui("info", "--mcp", mcp_long_instructions.url, "--json")

    assert text.returncode == 0, text.stderr
    assert len(LONG_INSTRUCTIONS) > MAX_INSTRUCTIONS
    assert (
        f"    … instructions cut: the server sent {len(LONG_INSTRUCTIONS):,} characters, "
        f"the first {MAX_INSTRUCTIONS:,} are shown"
    ) in text.stdout.splitlines()
    assert len(text.stdout) < MAX_INSTRUCTIONS * 1.5
    server = json.loads(data.stdout)["endpoints"][0]["server"]
    assert server["instructions"] == LONG_INSTRUCTIONS[:MAX_INSTRUCTIONS]
    assert server["instructions_length"] == len(LONG_INSTRUCTIONS)


def test_info_shows_server_everythings_instructions_for_the_agent(everything_http):
    result = fleet_tui("info", "--mcp", everything_http.url)

    assert result.returncode == 0, result.stderr
    assert "  Server        mcp-servers/everything" in result.stdout
    assert "  Title         Everything Reference Server" in result.stdout
    assert "    - Use `get-roots-list` to see client workspace roots" in result.stdout
    assert "resources (list changes, subscriptions)" in result.stdout


def test_info_of_a_server_that_is_not_there_fails_in_plain_words():
    result = fleet_tui("info", "--mcp", "http://127.0.0.1:9/mcp")

    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "fleet-tui: could not connect to any MCP endpoint: http://127.0.0.1:9/mcp: "
        "cannot connect (All connection attempts failed)"
    )


async def roots_listed(controller: SessionController) -> str:
    assert controller.env is not None
    result = await controller.env.call_tool("get-roots-list", {})
    return result.text()


async def test_changed_roots_reach_the_server_while_connected(everything_http, tmp_path):
    controller = SessionController(
        McpTarget(urls=[everything_http.url]), requests=HeadlessAnswers(["."])
    )
    await controller.connect()
    try:
        assert tmp_path.as_uri() not in await roots_listed(controller)
        assert await controller.set_roots([".", str(tmp_path)]) == []
        assert controller.roots() == [".", str(tmp_path)]
        listed = ""
        for _ in range(50):  # the server asks for the roots again when told they changed
            listed = await roots_listed(controller)
            if tmp_path.as_uri() in listed:
                break
            await asyncio.sleep(0.1)
        assert tmp_path.as_uri() in listed
    finally:
        await controller.close_env()


async def test_a_root_that_is_not_a_directory_is_refused_and_the_roots_stay(tmp_path):
    controller = SessionController(
        McpTarget(urls=["http://127.0.0.1:9/mcp"]), requests=HeadlessAnswers(["."])
    )
    missing = tmp_path / "missing"

    with pytest.raises(ValueError, match=f"^{re.escape(str(missing))}: not a directory$"):
        await controller.set_roots([".", str(missing)])
    assert controller.roots() == ["."]


def test_capabilities_are_told_by_name_with_their_flags_and_bounded():
    told = capability_lines(
        {"tools": {"listChanged": True}, "resources": {"subscribe": True}, "logging": {}}
    )
    many = capability_lines({f"x-{n:03d}": {} for n in range(MAX_CAPABILITIES + 5)})

    assert told == ["tools (list changes)", "resources (subscriptions)", "logging"]
    assert capability_lines({}) == ["(none declared)"]
    assert len(many) == MAX_CAPABILITIES + 1 and many[-1] == "… and 5 more"


def test_info_shows_a_stdio_servers_stderr():
    result = fleet_tui("info", "--stdio", STDIO_COMMAND)

    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  Connection    stdio · up · 2 tools" in lines
    assert re.search(r"^  stderr\n    pid \d+$", result.stdout, re.MULTILINE)
