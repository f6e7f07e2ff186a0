"""`fleet-tui resources|read|prompts|prompt` and what `call` and `tools` say of media,
annotations and task-only tools, run as a user would against a real MCP server."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_run import fleet_tui
from tests.fixtures.catalog_server import BLOB, PAGE, SCRIPT, WAV
from tests.fixtures.mcp_servers import ServedMcp, tiny_png


def test_resources_lists_resources_and_templates(catalog_mcp: ServedMcp) -> None:
    text = fleet_tui("resources", "--mcp", catalog_mcp.url)
    as_json = fleet_tui("resources", "--mcp", catalog_mcp.url, "--json")
    assert text.returncode == 0, text.stderr
    assert "memo://config  application/json" in text.stdout
    assert "memo://items/{item}  One item by name." in text.stdout
    assert "5 resources, 1 templates" in text.stdout
    listed = json.loads(as_json.stdout)
    assert [r["uri"] for r in listed["resources"]][:2] == ["memo://notes", "memo://config"]
    assert listed["templates"][0]["endpoint"] == catalog_mcp.url
    # MCP's wire names, as an MCP client prints them
    assert listed["resources"][1]["mimeType"] == "application/json"
    assert listed["templates"][0]["uriTemplate"] == "memo://items/{item}"
    assert "mime_type" not in as_json.stdout and "uri_template" not in as_json.stdout


def test_tools_and_call_json_use_mcps_wire_names(catalog_mcp: ServedMcp) -> None:
    tools = json.loads(fleet_tui("tools", "--mcp", catalog_mcp.url, "--json").stdout)["tools"]
    research = next(tool for tool in tools if tool["name"] == "research")
    assert research["execution"] == {"taskSupport": "required"}
    assert all("inputSchema" in tool and "input_schema" not in tool for tool in tools)
    info = json.loads(fleet_tui("info", "--mcp", catalog_mcp.url, "--json").stdout)
    assert info["endpoints"][0]["server"]["protocolVersion"]
    called = fleet_tui("call", "--mcp", catalog_mcp.url, "touch", "-a", "text=x", "--json")
    result = json.loads(called.stdout)
    assert result["isError"] is False and "structuredContent" in result
    assert "is_error" not in result and "structured" not in result


def test_read_prints_text_and_saves_binary_contents(catalog_mcp: ServedMcp, tmp_path) -> None:
    text = fleet_tui("read", "--mcp", catalog_mcp.url, "memo://items/apple")
    binary = fleet_tui(
        "read", "--mcp", catalog_mcp.url, "memo://blob", "--save-media", str(tmp_path), "--json"
    )
    logo = fleet_tui("read", "--mcp", catalog_mcp.url, "memo://logo", "--save-media", str(tmp_path))
    assert text.returncode == 0 and "item apple" in text.stdout
    contents = json.loads(binary.stdout)["contents"]
    assert Path(contents[0]["path"]).read_bytes() == BLOB
    assert contents[0]["size_bytes"] == len(BLOB)
    saved = Path(logo.stdout.strip().splitlines()[-1].strip())
    assert saved.suffix == ".png" and saved.read_bytes() == tiny_png()


def test_an_unknown_uri_is_a_plain_error_with_exit_code_1(catalog_mcp: ServedMcp) -> None:
    result = fleet_tui("read", "--mcp", catalog_mcp.url, "memo://nope")
    assert result.returncode == 1
    assert "fleet-tui: reading memo://nope: the server answered: Unknown resource" in result.stderr
    assert "Traceback" not in result.stderr


def test_prompts_lists_arguments_and_prompt_gets_one(catalog_mcp: ServedMcp) -> None:
    listed = fleet_tui("prompts", "--mcp", catalog_mcp.url)
    got = fleet_tui("prompt", "--mcp", catalog_mcp.url, "greet", "-a", "name=Ada")
    as_json = fleet_tui(
        "prompt", "--mcp", catalog_mcp.url, "greet", "-a", "name=7", "-a", "style=formal", "--json"
    )
    assert "greet   name* style  Greets someone." in listed.stdout
    assert got.returncode == 0 and got.stdout.splitlines()[-2:] == ["[user]", "Hello Ada!"]
    messages = json.loads(as_json.stdout)["messages"]
    assert messages == [{"role": "user", "content": {"type": "text", "text": "Dear 7, greetings."}}]


def test_an_unknown_prompt_or_a_missing_argument_is_a_plain_error(catalog_mcp) -> None:
    unknown = fleet_tui("prompt", "--mcp", catalog_mcp.url, "nope")
    missing = fleet_tui("prompt", "--mcp", catalog_mcp.url, "greet")
    assert unknown.returncode == 2
    assert "unknown prompt 'nope' (available: greet, plain)" in unknown.stderr
    assert missing.returncode == 2 and "needs the argument(s): name" in missing.stderr


def test_audio_is_saved_by_save_media_and_its_old_name(catalog_mcp, tmp_path) -> None:
    for flag in ("--save-media", "--save-images"):
        folder = tmp_path / flag.strip("-")
        result = fleet_tui("call", "--mcp", catalog_mcp.url, "chime", flag, str(folder))
        assert result.returncode == 0, result.stderr
        saved = list(folder.iterdir())
        assert [p.suffix for p in saved] == [".wav"] and saved[0].read_bytes() == WAV


def test_active_types_are_saved_as_bin_with_the_servers_type_said(catalog_mcp, tmp_path) -> None:
    text = fleet_tui("call", "--mcp", catalog_mcp.url, "shady", "--save-media", str(tmp_path))
    as_json = fleet_tui(
        "call", "--mcp", catalog_mcp.url, "shady", "--save-media", str(tmp_path), "--json"
    )
    assert text.returncode == 0, text.stderr
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".bin", ".bin"]
    assert {p.read_bytes() for p in tmp_path.iterdir()} == {SCRIPT, PAGE}
    assert "[audio application/x-sh, " in text.stdout
    assert "[resource memo://page text/html]" in text.stdout
    blocks = json.loads(as_json.stdout)["blocks"]
    assert [b["mimeType"] for b in blocks] == ["application/x-sh", "text/html"]
    assert all(b["path"].endswith(".bin") for b in blocks)


def test_content_annotations_are_kept_in_json_and_said_in_text(catalog_mcp) -> None:
    as_json = fleet_tui("call", "--mcp", catalog_mcp.url, "noted", "--json")
    text = fleet_tui("call", "--mcp", catalog_mcp.url, "noted")
    block = json.loads(as_json.stdout)["blocks"][0]
    assert block["annotations"] == {"audience": ["user"], "priority": 0.9}
    assert "(for user; priority 0.9)" in text.stdout


def test_tools_shows_hints_and_marks_task_only_tools(catalog_mcp) -> None:
    result = fleet_tui("tools", "--mcp", catalog_mcp.url)
    assert "wipe      [destructive] Deletes everything." in result.stdout
    assert "look      [read-only, closed world] Only reads." in result.stdout
    assert "research  [task only] " in result.stdout


def test_a_target_without_mcp_has_no_resources(openenv_server) -> None:
    result = fleet_tui("resources", "--openenv", openenv_server.base_url)
    assert result.returncode == 2
    assert "serves no MCP resources or prompts" in result.stderr
