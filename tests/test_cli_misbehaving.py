"""Headless commands against a misbehaving MCP server, each in a subprocess: an error status is
one line naming it with a hint; broken tools are listed with their reason."""

from __future__ import annotations

import json

import pytest

from tests.cli_run import assert_one_line_error, fleet_tui


@pytest.mark.parametrize("command", ["tools", "call"])
def test_an_error_status_is_one_line_with_a_hint(misbehaving, command):
    url = f"{misbehaving}/status/403"
    arguments = ["fine"] if command == "call" else []

    result = fleet_tui(command, "--mcp", url, *arguments)

    assert_one_line_error(
        result, 2, f"{url}: HTTP 403 Forbidden: check the credentials (the API key or token)"
    )


@pytest.mark.parametrize("status", [401, 404])
def test_a_connect_error_names_the_url_once_and_no_class(misbehaving, status):
    url = f"{misbehaving}/status/{status}"

    result = fleet_tui("tools", "--mcp", url)

    last = result.stderr.strip().splitlines()[-1]
    said = f"fleet-tui: could not connect to any MCP endpoint: {url}: HTTP {status}"
    assert last.startswith(said)
    assert last.count(url) == 1 and "MCPError" not in last


def test_tools_lists_broken_tools_with_their_reason(misbehaving):
    url = f"{misbehaving}/bad-schemas"

    listed = fleet_tui("tools", "--mcp", url)
    as_json = fleet_tui("tools", "--mcp", url, "--json")

    assert listed.returncode == 0, listed.stderr
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[2:5]}
    assert rows["fine"].split() == ["fine", "Works."]
    assert "BROKEN: nested more than 197 levels deep" in rows["deep"]
    assert "BROKEN: inputSchema: " in rows["rootless"]
    broken = {tool["name"]: tool["broken"] for tool in json.loads(as_json.stdout)["tools"]}
    assert broken["fine"] is None and "197 levels" in broken["deep"]
