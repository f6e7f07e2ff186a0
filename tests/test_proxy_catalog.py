"""The whole of MCP through the proxy: the agent lists and reads the env's resources and
templates, subscribes to one and hears its updates, lists and gets its prompts, gets content
annotations as the env sent them, and hears the env's progress reports of its call and its log
messages. The proxy runs in process; the agent is an `mcp` SDK ClientSession over HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp import types

from fleet_tui.proxy.gate import Gate
from tests.test_proxy_holds import WAIT_S, proxied, until


async def test_resources_prompts_and_annotations_reach_the_agent(catalog_mcp):
    updates: list[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updates.append(str(message.params.uri))

    async with (
        proxied([catalog_mcp.url], Gate()) as proxy,
        proxy.agent(message_handler=on_message) as agent,
    ):
        uris = [str(r.uri) for r in (await agent.list_resources()).resources]
        assert "memo://notes" in uris and "memo://logo" in uris
        templates = (await agent.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["memo://items/{item}"]
        notes = (await agent.read_resource("memo://notes")).contents[0]
        assert notes.text and notes.mime_type == "text/plain"
        logo = (await agent.read_resource("memo://logo")).contents[0]
        assert logo.mime_type == "image/png" and logo.blob

        prompts = {p.name: p for p in (await agent.list_prompts()).prompts}
        assert [(a.name, a.required) for a in prompts["greet"].arguments] == [
            ("name", True),
            ("style", False),
        ]
        greeting = await agent.get_prompt("greet", {"name": "Ada"})
        assert greeting.messages[0].content.text == "Hello Ada!"

        noted = (await agent.call_tool("noted", {})).content[0]
        assert noted.annotations.audience == ["user"] and noted.annotations.priority == 0.9

        await agent.subscribe_resource("memo://notes")
        await agent.call_tool("touch", {"text": "changed"})
        await until(lambda: updates)
        assert updates == ["memo://notes"]


async def test_the_envs_progress_and_log_messages_reach_the_agent(talkative):
    logs: list[tuple[str, Any]] = []
    progress: list[str | None] = []

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append((params.level, params.data))

    async def on_progress(_progress: float, _total: float | None, message: str | None) -> None:
        progress.append(message)

    async with (
        proxied([talkative.url], Gate()) as proxy,
        proxy.agent(logging_callback=on_log) as agent,
    ):
        said = await agent.call_tool("say", {"text": "hello agent", "level": "warning"})
        assert said.content[0].text == "hello agent"
        await until(lambda: logs)
        assert logs == [("warning", "hello agent")]
        slow = asyncio.ensure_future(
            agent.call_tool("slow", {"steps": 2}, progress_callback=on_progress)
        )
        await until(lambda: progress)
        talkative.gate.set()
        assert not (await asyncio.wait_for(slow, WAIT_S)).is_error
    assert progress[:2] == ["step 1 of 2", "step 2 of 2"]
