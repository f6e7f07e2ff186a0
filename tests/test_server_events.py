"""What a server says on its own (progress, log messages, list changes) reaches the session
controller's listeners as typed events, from a real server over HTTP."""

from __future__ import annotations

import asyncio

import pytest

from fleet_tui.controller import CallProgress, SessionController
from fleet_tui.envs.server_events import ListChanged, ServerLog
from fleet_tui.envs.targets import McpTarget
from fleet_tui.session_records import SessionEvent
from tests.fixtures.talkative import Talkative


async def wait_for(condition, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out waiting"
        await asyncio.sleep(0.02)


async def connected(server: Talkative, heard: list[SessionEvent]) -> SessionController:
    controller = SessionController(McpTarget(urls=[server.url]))
    controller.subscribe(heard.append)
    await controller.connect()
    return controller


async def test_a_calls_progress_reaches_its_record(talkative: Talkative) -> None:
    heard: list[SessionEvent] = []
    controller = await connected(talkative, heard)
    try:
        record = controller.add_record("slow", {"steps": 3})
        call = asyncio.create_task(controller.call(record))
        await wait_for(lambda: len([e for e in heard if isinstance(e, CallProgress)]) == 2)
        talkative.gate.set()
        result = await call
    finally:
        await controller.close_env()
    assert result is not None and not result.is_error
    progress = [e for e in heard if isinstance(e, CallProgress)]
    assert [(e.progress, e.total, e.message) for e in progress] == [
        (1, 3, "step 1 of 3"),
        (2, 3, "step 2 of 3"),
        (3, 3, "step 3 of 3"),
    ]
    assert {id(e.record) for e in progress} == {id(record)}


async def test_log_messages_arrive_from_the_level_the_servers_were_asked_for(
    talkative: Talkative,
) -> None:
    heard: list[SessionEvent] = []
    controller = await connected(talkative, heard)
    try:
        assert await controller.set_log_level("WARNING") == []
        await controller.env.call_tool("say", {"text": "quiet", "level": "info"})
        await controller.env.call_tool("say", {"text": "loud", "level": "error"})
        await wait_for(lambda: any(isinstance(e, ServerLog) for e in heard))
    finally:
        await controller.close_env()
    assert talkative.levels == ["warning"]
    logs = [e for e in heard if isinstance(e, ServerLog)]
    assert [(e.endpoint, e.level, e.logger, e.data) for e in logs] == [
        (talkative.url, "error", "talk", "loud")
    ]


async def test_the_log_level_is_sent_again_on_each_connect(talkative: Talkative) -> None:
    controller = SessionController(McpTarget(urls=[talkative.url]))
    await controller.set_log_level("notice")  # before connecting: kept for the connect
    await controller.connect()
    try:
        controller.start_connecting()
        await controller.connect()  # a new env, a new connection
    finally:
        await controller.close_env()
    assert talkative.levels == ["notice", "notice"]


async def test_an_unknown_log_level_is_refused_in_plain_words() -> None:
    controller = SessionController(McpTarget(urls=["http://127.0.0.1:1/mcp"]))
    with pytest.raises(ValueError, match=r"unknown log level 'loud'.*debug, info"):
        await controller.set_log_level("loud")


async def test_a_tool_list_change_is_an_event_and_the_tools_list_again(
    talkative: Talkative,
) -> None:
    heard: list[SessionEvent] = []
    controller = await connected(talkative, heard)
    try:
        assert controller.tool_named("fresh") is None
        await controller.env.call_tool("grow", {"name": "fresh"})
        await wait_for(lambda: any(isinstance(e, ListChanged) for e in heard))
        tools = await controller.refresh_tools()
    finally:
        await controller.close_env()
    assert [e for e in heard if isinstance(e, ListChanged)] == [ListChanged(talkative.url, "tools")]
    assert "fresh" in [t.name for t in tools]
    assert controller.tool_named("fresh") is not None


async def test_resource_and_prompt_list_changes_are_events_of_their_kind(
    talkative: Talkative,
) -> None:
    heard: list[SessionEvent] = []
    controller = await connected(talkative, heard)
    try:
        await controller.env.call_tool("announce", {"kind": "resources"})
        await controller.env.call_tool("announce", {"kind": "prompts"})
        await wait_for(lambda: len([e for e in heard if isinstance(e, ListChanged)]) == 2)
    finally:
        await controller.close_env()
    changes = [e for e in heard if isinstance(e, ListChanged)]
    assert sorted(e.kind for e in changes) == ["prompts", "resources"]
