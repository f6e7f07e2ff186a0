"""Resources, templates and prompts of a union of MCP endpoints, against real servers: each
item keeps its endpoint, reads and gets go to the owner, completions and subscriptions work,
and what no server offers is a plain error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import AudioBlock, EnvError, ResourceLinkBlock, TextBlock
from fleet_tui.envs.mcp_catalog import McpCatalog
from fleet_tui.envs.mcp_client import CLIENT_LOGGER
from fleet_tui.envs.server_events import ResourceUpdated, server_event
from fleet_tui.envs.targets import McpTarget
from fleet_tui.envs.tool_hints import hint_words, tool_mark
from tests.fixtures.catalog_server import BLOB, WAV
from tests.fixtures.mcp_servers import ServedMcp, tiny_png


@pytest.fixture
async def session(catalog_mcp: ServedMcp, mcp_alpha: ServedMcp) -> AsyncIterator[SessionController]:
    """A session on alpha (tools only) and the catalog server, in that order."""
    controller = SessionController(McpTarget(urls=[mcp_alpha.url, catalog_mcp.url]))
    await controller.connect()
    yield controller
    await controller.close_env()


def catalog_of(session: SessionController) -> McpCatalog:
    catalog = session.catalog()
    assert catalog is not None
    return catalog


async def test_lists_resources_templates_and_prompts_with_their_endpoint(session, catalog_mcp):
    catalog = catalog_of(session)
    resources = await catalog.resources()
    templates = await catalog.templates()
    prompts = await catalog.prompts()
    assert [r.uri for r in resources.items] == [
        "memo://notes",
        "memo://config",
        "memo://logo",
        "memo://blob",
        "memo://evil",
    ]
    assert [t.uri_template for t in templates.items] == ["memo://items/{item}"]
    assert templates.items[0].variables() == ["item"]
    assert {p.name: [a.name for a in p.arguments] for p in prompts.items} == {
        "greet": ["name", "style"],
        "plain": [],
    }
    owners = {item.endpoint for item in [*resources.items, *templates.items, *prompts.items]}
    assert owners == {catalog_mcp.url}
    assert not resources.warnings and not templates.warnings and not prompts.warnings


async def test_reads_text_binary_and_template_resources(session):
    catalog = catalog_of(session)
    notes = await catalog.read("memo://notes")
    logo = await catalog.read("memo://logo")
    item = await catalog.read("memo://items/apple")
    assert [c.text for c in notes.contents] == ["first notes"]
    assert logo.contents[0].blob == tiny_png() and logo.contents[0].mime_type == "image/png"
    assert (await catalog.read("memo://blob")).contents[0].blob == BLOB
    assert item.contents[0].text == "item apple"


async def test_an_unknown_uri_is_the_servers_plain_error_with_exit_code_1(session):
    with pytest.raises(EnvError) as raised:
        await catalog_of(session).read("memo://nope")
    assert "Unknown resource: memo://nope" in raised.value.message
    assert raised.value.exit_code == 1


async def test_gets_a_prompt_with_arguments_and_checks_required_ones_first(session):
    catalog = catalog_of(session)
    result = await catalog.get_prompt("greet", {"name": "Ada", "style": "formal"})
    assert [(m.role, m.block) for m in result.messages] == [
        ("user", TextBlock(text="Dear Ada, greetings."))
    ]
    with pytest.raises(EnvError, match=r"needs the argument.*name") as missing:
        await catalog.get_prompt("greet", {})
    with pytest.raises(EnvError, match=r"unknown prompt 'nope' \(available: greet, plain\)"):
        await catalog.get_prompt("nope", {})
    assert missing.value.exit_code == 2


async def test_completes_template_and_prompt_arguments(session):
    catalog = catalog_of(session)
    template = (await catalog.templates()).items[0]
    greet = next(p for p in (await catalog.prompts()).items if p.name == "greet")
    assert await catalog.complete(template, "item", "ap") == ["apple", "apricot"]
    assert await catalog.complete(greet, "name", "G") == ["Grace"]


async def test_a_subscribed_resource_update_is_a_session_event(catalog_mcp):
    heard: list[Any] = []
    session = SessionController(McpTarget(urls=[catalog_mcp.url]))
    session.subscribe(heard.append)
    await session.connect()
    try:
        catalog = catalog_of(session)
        await catalog.subscribe("memo://notes")
        assert catalog.subscribed == {"memo://notes"}
        await session.env.call_tool("touch", {"text": "second notes"})
        for _ in range(50):
            if any(isinstance(event, ResourceUpdated) for event in heard):
                break
            await asyncio.sleep(0.05)
        updates = [event for event in heard if isinstance(event, ResourceUpdated)]
        assert updates == [ResourceUpdated(catalog_mcp.url, "memo://notes")]
        assert (await catalog.read("memo://notes")).contents[0].text == "second notes"
        await catalog.unsubscribe("memo://notes")
        assert catalog.subscribed == set()
    finally:
        await session.close_env()


async def test_the_session_lists_subscribes_and_completes_for_the_ui(session, catalog_mcp):
    assert session.can_list_catalog
    resources, templates = await session.list_resources()
    assert "memo://notes" in [r.uri for r in resources.items]
    prompts = (await session.list_prompts()).items
    greet = next(p for p in prompts if p.name == "greet")
    assert await session.complete(templates.items[0], "item", "ap", {}) == ["apple", "apricot"]
    assert await session.complete(greet, "name", "G", {}) == ["Grace"]
    await session.set_subscription("memo://notes", True)
    assert session.subscriptions() == {"memo://notes"}
    await session.set_subscription("memo://notes", False)
    assert session.subscriptions() == set()


async def test_a_session_that_is_not_connected_has_no_catalog_to_list(catalog_mcp):
    session = SessionController(McpTarget(urls=[catalog_mcp.url]))
    assert not session.can_list_catalog and session.subscriptions() == set()
    with pytest.raises(EnvError, match="not connected to a target that speaks MCP"):
        await session.list_prompts()


async def test_a_server_without_resources_lists_none_and_refuses_in_plain_words(mcp_alpha):
    controller = SessionController(McpTarget(urls=[mcp_alpha.url]))
    await controller.connect()
    try:
        catalog = catalog_of(controller)
        assert (await catalog.resources()).items == []
        assert (await catalog.prompts()).items == []
        with pytest.raises(EnvError, match="Unknown resource: memo://notes"):
            await catalog.read("memo://notes")
    finally:
        await controller.close_env()


async def test_content_and_tool_annotations_are_kept(session):
    env = session.env
    tools = {tool.name: tool for tool in await env.list_tools()}
    assert hint_words(tools["wipe"]) == ["destructive"] and tool_mark(tools["wipe"]) == "!"
    assert hint_words(tools["look"]) == ["read-only", "closed world"]
    assert "task only" in hint_words(tools["research"]) and tool_mark(tools["research"]) == "T"
    noted = await env.call_tool("noted", {})
    assert noted.blocks[0].annotations == {"audience": ["user"], "priority": 0.9}
    chime = await env.call_tool("chime", {})
    assert chime.blocks == [AudioBlock(mime_type="audio/wav", data=WAV)]
    link = await env.call_tool("link", {})
    assert isinstance(link.blocks[0], ResourceLinkBlock)
    assert link.blocks[0].uri == "memo://notes"


def client_notes(heard: list[Any]) -> list[str]:
    """What the client itself said in the log (ClientHandlers.note)."""
    return [n.params.data for n in heard if getattr(n.params, "logger", None) == CLIENT_LOGGER]


async def reopen(session: SessionController) -> None:
    """Drop the session's only connection and reconnect."""
    [endpoint] = session.env.union._endpoints
    endpoint.mark_down("dropped by the test")
    await session.env.reconnect()
    assert endpoint.is_up


async def test_a_reopened_connection_is_subscribed_again_saying_so(catalog_mcp):
    heard: list[Any] = []
    session = SessionController(McpTarget(urls=[catalog_mcp.url]))
    session.client_handlers.on_notification.append(lambda _url, n: heard.append(n))
    await session.connect()
    try:
        catalog = catalog_of(session)
        await catalog.subscribe("memo://notes")
        await reopen(session)
        assert catalog.subscribed == {"memo://notes"}
        assert client_notes(heard) == [
            f"{catalog_mcp.url}: restored on connecting: subscribed again to memo://notes"
        ]
        await session.env.call_tool("touch", {"text": "third notes"})

        def updates() -> list[str]:
            events = [server_event(catalog_mcp.url, n) for n in heard]
            return [e.uri for e in events if isinstance(e, ResourceUpdated)]

        for _ in range(50):  # the update comes on the new connection, subscribed again
            if updates():
                break
            await asyncio.sleep(0.05)
        assert updates() == ["memo://notes"]
    finally:
        await session.close_env()


async def test_server_everything_gets_its_log_level_and_subscription_back_on_reconnect(
    everything_http,
):
    heard: list[Any] = []
    session = SessionController(McpTarget(urls=[everything_http.url]))
    session.client_handlers.on_notification.append(lambda _url, n: heard.append(n))
    await session.connect()
    uri = "demo://resource/static/document/features.md"
    try:
        await catalog_of(session).subscribe(uri)
        assert await session.set_log_level("debug") == []
        heard.clear()
        await reopen(session)
        assert client_notes(heard) == [
            f"{everything_http.url}: restored on connecting: log level debug sent again; "
            f"subscribed again to {uri}"
        ]
        said = [str(n.params.data) for n in heard if n.method == "notifications/message"]
        # the server heard the subscription on the new connection:
        assert any(f"Received Subscribe Resource request for URI: {uri}" in line for line in said)
    finally:
        await session.close_env()
