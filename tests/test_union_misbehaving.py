"""McpUnion against a server that misbehaves over real HTTP: error statuses, replies cut short,
a tools/list cursor that never ends, a reply too large to keep, tools the mcp SDK rejects."""

from __future__ import annotations

import pytest

from fleet_tui.envs.base import EndpointState, EnvError
from fleet_tui.envs.mcp_union import McpUnion
from tests.fixtures.raw_mcp import LISTINGS, SNAKE_FIELDS_TOOL


@pytest.fixture
async def open_union():
    """Connect a union to the given URLs; every union made is closed after the test."""
    unions: list[McpUnion] = []

    async def connect(*urls: str) -> McpUnion:
        union = McpUnion(list(urls), backoff_s=0.01)
        unions.append(union)
        await union.connect()
        return union

    yield connect
    for union in unions:
        await union.close()


def states(union: McpUnion) -> list[EndpointState]:
    return [status.state for status in union.endpoints()]


@pytest.mark.parametrize(
    ("status", "says"),
    [
        (401, "{url}: HTTP 401 Unauthorized: check the credentials (the API key or token)"),
        (403, "{url}: HTTP 403 Forbidden: check the credentials"),
        (404, "{url}: HTTP 404 Not Found: wrong path, or an SSE endpoint"),
        (500, "{url}: HTTP 500 Internal Server Error: the server failed"),
    ],
)
async def test_an_error_status_is_named_with_a_hint(misbehaving, open_union, status, says):
    url = f"{misbehaving}/status/{status}"
    with pytest.raises(EnvError) as caught:
        await open_union(url)

    assert says.format(url=url) in caught.value.message
    assert "Server returned an error response" not in caught.value.message


async def test_a_call_answered_with_an_error_status_names_it(misbehaving, open_union):
    union = await open_union(f"{misbehaving}/call-status/503")

    result = await union.call_tool("fine", {})

    assert result.is_error and "HTTP 503 Service Unavailable" in result.text()
    assert "the server failed" in result.text()
    assert states(union) == [EndpointState.UP]


async def test_a_tool_list_cut_mid_json_fails_that_list_only(misbehaving, open_union):
    union = await open_union(f"{misbehaving}/fine", f"{misbehaving}/cut-list")

    tools = await union.list_tools()

    assert [tool.name for tool in tools] == ["fine"]
    assert states(union) == [EndpointState.UP, EndpointState.UP]
    [warning] = union.warnings()
    assert f"{misbehaving}/cut-list: its tool list could not be used" in warning
    assert "not valid JSON, most likely cut short" in warning and "\n" not in warning


@pytest.mark.parametrize("mode", ["cut-call", "cut-sse-call"])
async def test_a_reply_cut_mid_json_fails_that_call_only(misbehaving, open_union, mode):
    union = await open_union(f"{misbehaving}/{mode}")

    result = await union.call_tool("fine", {})

    assert result.is_error and result.error_kind == "unreadable reply"
    assert "not valid JSON, most likely cut short (EOF while parsing" in result.text()
    assert "validation error" not in result.text()
    assert states(union) == [EndpointState.UP]


async def test_a_reply_whose_connection_drops_midway_fails_that_call_only(misbehaving, open_union):
    union = await open_union(f"{misbehaving}/dropped-call")

    result = await union.call_tool("fine", {})

    assert result.is_error and result.error_kind == "unreadable reply"
    assert "cut short: " in result.text() and "peer closed connection" in result.text()
    assert states(union) == [EndpointState.UP]


async def test_endless_pagination_stops_after_100_pages_keeping_the_tools(misbehaving, open_union):
    union = await open_union(f"{misbehaving}/endless")

    tools = await union.list_tools()

    assert len(tools) == 100 and tools[-1].name == "page99"
    assert union.warnings() == [
        f"MCP endpoint {misbehaving}/endless: stopped listing tools after 100 pages: the server "
        "kept returning a next cursor"
    ]
    assert states(union) == [EndpointState.UP]


@pytest.mark.parametrize("mode", ["huge", "huge-sse"])
async def test_a_reply_over_64_mb_fails_that_call_only(misbehaving, open_union, mode):
    union = await open_union(f"{misbehaving}/{mode}")

    result = await union.call_tool("fine", {})

    assert result.is_error and result.error_kind == "unreadable reply"
    assert "result too large: over 64 MB" in result.text()
    assert states(union) == [EndpointState.UP]


@pytest.mark.parametrize("mode", ["bad-schemas", "bad-schemas-sse"])
async def test_tools_the_sdk_rejects_are_listed_broken_and_the_others_work(
    misbehaving, open_union, mode
):
    asked = LISTINGS[mode]
    union = await open_union(f"{misbehaving}/{mode}")

    tools = {tool.name: tool for tool in await union.list_tools()}

    assert LISTINGS[mode] - asked == 2  # as it came (the SDK refused it), then screened
    assert list(tools) == ["fine", "deep", "rootless"]
    assert tools["fine"].broken is None
    assert tools["deep"].broken == "nested more than 197 levels deep"
    assert tools["rootless"].broken == "inputSchema: should be a JSON object"
    assert tools["deep"].description == "Nested 200 levels."
    assert (await union.call_tool("fine", {})).text() == "ok"
    with pytest.raises(EnvError, match="tool 'deep' is broken and was not called") as caught:
        await union.call_tool("deep", {})
    assert "nested more than 197 levels deep" in caught.value.message


@pytest.mark.parametrize("screens", [False, True])
async def test_a_listing_is_screened_tool_by_tool_only_when_asked(misbehaving, screens):
    """Unscreened, a listing reaches the SDK as the server sent it (parsed once, by the SDK);
    screened, the tools the SDK would reject are stand-ins saying why."""
    from fleet_tui.envs.mcp_transports import http_client

    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    async with http_client(
        f"{misbehaving}/bad-schemas", {}, screens_listings=lambda: screens
    ) as client:
        reply = (await client.post(f"{misbehaving}/bad-schemas", json=listing)).json()

    rootless = reply["result"]["tools"][2]
    assert rootless["name"] == "rootless"
    if screens:
        assert rootless["inputSchema"] == {"type": "object"}
        assert rootless["_meta"] == {"fleet-tui/broken": "inputSchema: should be a JSON object"}
    else:
        assert rootless["inputSchema"] == ["not", "object"]


async def test_a_server_that_listed_tools_the_sdk_rejects_is_screened_from_then_on(
    misbehaving, open_union
):
    union = await open_union(f"{misbehaving}/bad-schemas")
    await union.list_tools()
    asked = LISTINGS["bad-schemas"]

    tools = await union.list_tools(refresh=True)

    assert LISTINGS["bad-schemas"] - asked == 1
    assert [tool.broken is None for tool in tools] == [True, False, False]


async def test_a_tool_list_of_a_well_behaved_server_is_asked_once(misbehaving, open_union):
    asked = LISTINGS["fine"]
    union = await open_union(f"{misbehaving}/fine")

    assert [tool.name for tool in await union.list_tools()] == ["fine"]
    assert LISTINGS["fine"] - asked == 1


async def test_entries_of_a_tool_list_that_are_no_tools_are_listed_broken(misbehaving, open_union):
    union = await open_union(f"{misbehaving}/malformed-tools")

    tools = {tool.name: tool.broken for tool in await union.list_tools()}

    assert tools == {
        "fine": None,
        "tool #2": "the tool: should be a JSON object",
        "tool #3": "name: missing",
        "tool #4": "name: should be a valid string",
        "listed": "description: should be a valid string",
    }
    assert (await union.call_tool("fine", {})).text() == "ok"


async def test_a_tool_list_over_64_mb_fails_that_endpoint_alone_and_is_asked_once(
    misbehaving, open_union
):
    asked = LISTINGS["huge-list"]
    union = await open_union(f"{misbehaving}/huge-list", f"{misbehaving}/fine")

    assert [tool.name for tool in await union.list_tools()] == ["fine"]
    assert any("result too large: over 64 MB" in warning for warning in union.warnings())
    assert LISTINGS["huge-list"] - asked == 1


async def test_fields_the_protocol_does_not_have_are_ignored_in_a_listed_tool(
    misbehaving, open_union
):
    union = await open_union(f"{misbehaving}/snake-fields")

    tools = {tool.name: tool for tool in await union.list_tools()}

    assert tools["snake"].input_schema == SNAKE_FIELDS_TOOL["inputSchema"]
    assert tools["snake"].output_schema is None
    assert tools["snake"].broken is None
