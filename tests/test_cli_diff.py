"""`fleet-tui diff A B` on two real servers that differ in known ways (alpha and beta: tools
added, removed and one whose schema changed; the catalog server and alpha: resources, templates
and prompts only one serves), and on one server against itself."""

from __future__ import annotations

import json

from tests.cli_run import fleet_tui
from tests.fixtures.mcp_servers import ServedMcp


def test_diff_names_added_removed_and_changed_tools(
    mcp_alpha: ServedMcp, mcp_beta: ServedMcp
) -> None:
    text = fleet_tui("diff", mcp_alpha.url, mcp_beta.url)
    as_json = fleet_tui("diff", mcp_alpha.url, mcp_beta.url, "--json")
    assert text.returncode == 1, text.stderr
    lines = text.stdout.splitlines()
    assert "tools: 5 added, 2 removed, 1 changed" in lines
    assert "  + picture" in lines and "  - echo" in lines and "  - add" in lines
    assert "  ~ clash: description, inputSchema" in lines
    assert any(line.strip() == '+    "label": {' for line in lines), text.stdout  # schema diff
    assert "whoami" not in text.stdout and "shared" not in text.stdout  # the same on both
    data = json.loads(as_json.stdout)
    assert as_json.returncode == 1 and data["same"] is False
    assert data["tools"]["removed"] == ["add", "echo"]
    [clash] = data["tools"]["changed"]
    schema = clash["fields"]["inputSchema"]
    assert "value" in schema["a"]["properties"] and "label" in schema["b"]["properties"]


def test_resources_templates_and_prompts_are_compared_too(
    catalog_mcp: ServedMcp, mcp_alpha: ServedMcp
) -> None:
    text = fleet_tui("diff", catalog_mcp.url, mcp_alpha.url)
    as_json = fleet_tui("diff", catalog_mcp.url, mcp_alpha.url, "--json")
    assert text.returncode == 1, text.stderr
    lines = text.stdout.splitlines()
    assert "templates: 0 added, 1 removed, 0 changed" in lines
    assert "prompts: 0 added, 2 removed, 0 changed" in lines
    assert "  - memo://items/{item}" in lines and "  - greet" in lines and "  - plain" in lines
    data = json.loads(as_json.stdout)
    assert as_json.returncode == 1 and data["same"] is False
    assert {"memo://notes", "memo://evil"} <= set(data["resources"]["removed"])
    assert data["templates"]["removed"] == ["memo://items/{item}"]
    assert data["prompts"] == {"added": [], "removed": ["greet", "plain"], "changed": []}


def test_a_server_against_itself_is_the_same(mcp_alpha: ServedMcp) -> None:
    same = fleet_tui("diff", mcp_alpha.url, f"--mcp {mcp_alpha.url}")
    assert same.returncode == 0, same.stderr
    assert same.stdout.strip() == "the same tools, resources, templates and prompts"


def test_an_unreachable_target_is_a_plain_error(mcp_alpha: ServedMcp) -> None:
    result = fleet_tui("diff", mcp_alpha.url, "http://127.0.0.1:1/mcp")
    assert result.returncode == 2
    assert "fleet-tui:" in result.stderr and "Traceback" not in result.stderr
