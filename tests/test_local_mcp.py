"""Each instance's two real MCP endpoints, reached with the mcp client over HTTP."""

from __future__ import annotations

import asyncio
import base64
import io
import json

import fleet
import pytest
from PIL import Image

from fleet_tui.local.runner import start_local_host
from tests.fixtures.local_host import mcp_session


@pytest.fixture
async def tracker(fleet_client):
    env = await fleet_client.make("tracker")
    yield env
    await env.close()


@pytest.fixture
async def todo(fleet_client):
    env = await fleet_client.make("desktop-todo")
    yield env
    await env.close()


async def tool_map(url: str) -> dict:
    async with mcp_session(url) as session:
        return {tool.name: tool for tool in (await session.list_tools()).tools}


async def test_tracker_endpoints_split_the_tools(tracker):
    main = await tool_map(f"{tracker.urls.root}mcp")
    api = await tool_map(f"{tracker.urls.root}api/v1/mcp")
    assert {"create_issue", "update_issue"} <= set(main) - set(api)
    assert {"add_comment", "search_issues", "bulk_label", "list_users"} <= set(api) - set(main)
    assert len(set(main) | set(api)) >= 8
    shared = set(main) & set(api)
    assert {"list_issues", "get_issue"} <= shared
    for name in shared:
        assert main[name].input_schema == api[name].input_schema


async def test_tracker_schemas_cover_the_json_schema_features(tracker):
    tools = await tool_map(f"{tracker.urls.root}mcp")
    tools |= await tool_map(f"{tracker.urls.root}api/v1/mcp")
    text = json.dumps([tool.input_schema for tool in tools.values()])
    create = tools["create_issue"].input_schema
    assert create["properties"]["priority"]["enum"] == ["low", "medium", "high", "urgent"]
    assert create["properties"]["priority"]["default"] == "medium"
    assert create["properties"]["labels"]["items"] == {"type": "string"}
    assert create["properties"]["subtasks"]["items"] == {"$ref": "#/$defs/Subtask"}
    assert {"type": "null"} in create["properties"]["assignee"]["anyOf"]
    limit = tools["list_issues"].input_schema["properties"]["limit"]
    assert (limit["type"], limit["minimum"], limit["maximum"]) == ("integer", 1, 100)
    assert tools["list_issues"].input_schema["properties"]["include_closed"]["type"] == "boolean"
    search = tools["search_issues"].input_schema
    assert {"SearchQuery", "DateRange"} <= set(search["$defs"])  # an object nested in an object
    assert '"$ref"' in text and '"$defs"' in text


async def test_tracker_tools_change_the_instance_state(tracker):
    async with mcp_session(f"{tracker.urls.root}mcp") as session:
        created = await session.call_tool(
            "create_issue",
            {
                "project": "OPS",
                "title": "Rotate keys",
                "labels": ["security"],
                "subtasks": [{"title": "Inventory keys", "estimate": 2}],
            },
        )
        assert not created.is_error
        issue_id = created.structured_content["id"]
        assert len(created.structured_content["subtask_ids"]) == 1
        updated = await session.call_tool(
            "update_issue", {"issue_id": issue_id, "changes": {"status": "in_progress"}}
        )
        assert updated.structured_content["status"] == "in_progress"
        missing = await session.call_tool("get_issue", {"issue_id": 999})
        assert missing.is_error and "999" in missing.content[0].text
    await tracker.instance.load()
    rows = await tracker.db().query("SELECT status FROM issues WHERE id = ?", [issue_id])
    assert rows.rows == [["in_progress"]]


async def test_instances_do_not_share_state(fleet_client, tracker):
    other = await fleet_client.make("tracker")
    try:
        async with mcp_session(f"{tracker.urls.root}api/v1/mcp") as session:
            await session.call_tool("add_comment", {"issue_id": 1, "body": "only here"})
        async with mcp_session(f"{other.urls.root}api/v1/mcp") as session:
            issue = await session.call_tool("get_issue", {"issue_id": 1})
        assert issue.structured_content["comments"] == []
    finally:
        await other.close()


async def test_many_sessions_on_one_endpoint(tracker):
    url = f"{tracker.urls.root}mcp"
    async with mcp_session(url) as first, mcp_session(url) as second:
        a = await first.call_tool("list_issues", {"limit": 2})
        b = await second.call_tool("list_issues", {"status": "done"})
    assert a.structured_content["count"] == 2
    assert [issue["id"] for issue in b.structured_content["issues"]] == [6]


def png_of(result) -> Image.Image:
    images = [block for block in result.content if block.type == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/png"
    return Image.open(io.BytesIO(base64.b64decode(images[0].data)))


async def test_computer_screenshot_is_a_real_png(todo):
    async with mcp_session(f"{todo.urls.root}mcp") as session:
        shot = await session.call_tool("computer", {"action": "screenshot"})
    assert shot.content[0].type == "text"
    image = png_of(shot)
    assert image.size == (1280, 800)
    assert len(set(image.convert("RGB").getdata())) > 10  # drawn, not blank


async def test_computer_clicks_and_typing_change_state_and_screen(todo):
    async with mcp_session(f"{todo.urls.root}mcp") as session:
        before = png_of(await session.call_tool("computer", {"action": "screenshot"}))
        await session.call_tool("computer", {"action": "left_click", "coordinate": [500, 128]})
        await session.call_tool("computer", {"action": "type", "text": "Buy milk"})
        added = await session.call_tool("computer", {"action": "key", "text": "Return"})
        assert "added 'Buy milk'" in added.content[0].text
        toggled = await session.call_tool(
            "computer", {"action": "left_click", "coordinate": [74, 266]}
        )
        assert "'Send weekly report' done" in toggled.content[0].text
        after = png_of(toggled)
        bad = await session.call_tool("computer", {"action": "left_click"})
        assert bad.is_error and "coordinate" in bad.content[0].text
    assert before.tobytes() != after.tobytes()
    await todo.instance.load()
    rows = await todo.db().query(
        "SELECT title, done FROM todos WHERE title IN (?, ?) ORDER BY id",
        ["Send weekly report", "Buy milk"],
    )
    assert rows.rows == [["Send weekly report", 1], ["Buy milk", 0]]


async def test_todo_endpoints_share_computer_and_differ_elsewhere(todo):
    main = await tool_map(f"{todo.urls.root}mcp")
    api = await tool_map(f"{todo.urls.root}api/v1/mcp")
    assert set(main) == {"computer"} and set(api) == {"computer", "app_state"}
    assert main["computer"].input_schema == api["computer"].input_schema
    actions = main["computer"].input_schema["properties"]["action"]["enum"]
    assert set(actions) == {
        "screenshot",
        "left_click",
        "double_click",
        "type",
        "key",
        "scroll",
        "mouse_move",
    }


async def test_many_instances_at_once(fleet_client):
    envs = await asyncio.gather(*(fleet_client.make("tracker") for _ in range(6)))
    try:

        async def comment_and_count(env, n: int) -> int:
            async with mcp_session(f"{env.urls.root}api/v1/mcp") as session:
                for _ in range(n):
                    await session.call_tool("add_comment", {"issue_id": 2, "body": "+1"})
                issue = await session.call_tool("get_issue", {"issue_id": 2})
                return len(issue.structured_content["comments"])

        counts = await asyncio.gather(*(comment_and_count(env, n) for n, env in enumerate(envs)))
        assert counts == list(range(6))
    finally:
        await asyncio.gather(*(env.close() for env in envs))


async def test_host_stops_promptly_with_sessions_open():
    host = start_local_host()
    client = fleet.AsyncFleet(api_key=host.token, base_url=host.base_url)
    env = await client.make("desktop-todo")
    async with mcp_session(f"{env.urls.root}mcp", host.token) as session:
        await session.list_tools()
        await asyncio.to_thread(host.stop)
        assert not host.running
        assert not any(instance.running for instance in host.registry.instances.values())
        assert not host.registry.state_dir.exists()


async def test_search_with_a_nested_query_and_list_users(tracker):
    async with mcp_session(f"{tracker.urls.root}api/v1/mcp") as session:
        found = await session.call_tool(
            "search_issues",
            {
                "query": {
                    "text": "safari",
                    "fields": ["title", "comments"],
                    "created": {"after": "2026-01-07", "before": "2026-01-08"},
                }
            },
        )
        assert [match["id"] for match in found.structured_content["matches"]] == [5]
        in_comments = await session.call_tool(
            "search_issues", {"query": {"text": "iphone", "fields": ["comments"]}}
        )
        assert [match["id"] for match in in_comments.structured_content["matches"]] == [5]
        devs = await session.call_tool("list_users", {"role": "developer"})
        assert [user["username"] for user in devs.structured_content["users"]] == ["bob", "carol"]
        bad = await session.call_tool("list_users", {"role": "boss"})
        assert bad.is_error
        labelled = await session.call_tool(
            "bulk_label", {"issue_ids": [1, 2], "add": ["q3"], "remove": ["ui"]}
        )
        assert [issue["labels"] for issue in labelled.structured_content["issues"]] == [
            ["bug", "q3"],
            ["feature", "q3"],
        ]


async def test_list_issues_sorts_with_an_inline_nested_object(tracker):
    main = await tool_map(f"{tracker.urls.root}mcp")
    sort = main["list_issues"].input_schema["properties"]["sort"]
    inline = next(option for option in sort["anyOf"] if option.get("type") == "object")
    assert inline["properties"]["by"]["enum"] == ["id", "updated_at", "priority"]
    assert inline["required"] == ["by"]
    async with mcp_session(f"{tracker.urls.root}mcp") as session:
        ranked = await session.call_tool("list_issues", {"sort": {"by": "priority"}, "limit": 3})
        assert [issue["priority"] for issue in ranked.structured_content["issues"]] == [
            "urgent",
            "high",
            "high",
        ]
        oldest = await session.call_tool(
            "list_issues", {"sort": {"by": "id", "descending": False}, "limit": 1}
        )
        assert oldest.structured_content["issues"][0]["id"] == 1
        bad = await session.call_tool("list_issues", {"sort": {"by": "colour"}})
        assert bad.is_error and "sort needs by" in bad.content[0].text


@pytest.mark.parametrize("env_key", ["tracker", "desktop-todo"])
def test_a_new_instance_builds_no_tool_argument_models(tmp_path, env_key):
    """Each instance's tools close over its own state (test_instances_do_not_share_state),
    but their definitions, pydantic argument models and JSON schemas that are slow to build,
    are built for an env's first instance only."""
    from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase

    from fleet_tui.local.envs import ENVS
    from fleet_tui.local.state import InstanceState

    spec = ENVS[env_key]
    script = spec.seed_sql(spec.default_version)
    first = spec.build_servers(InstanceState.create(tmp_path, script))
    models = len(ArgModelBase.__subclasses__())
    second = spec.build_servers(InstanceState.create(tmp_path, script))
    assert len(ArgModelBase.__subclasses__()) == models
    assert first.keys() == second.keys()
