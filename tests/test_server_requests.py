"""A server's own requests (elicitation, sampling, roots) reach the session's `ClientHandlers`
and their answers reach the server; only the handlers that are set are declared."""

from __future__ import annotations

import json
from pathlib import Path

from fleet_tui.controller import SessionController
from fleet_tui.envs.server_requests import ElicitAnswer, ElicitRequest, SampleRequest
from fleet_tui.envs.targets import McpTarget
from tests.fixtures.mcp_servers import ServedMcp


async def call_text(controller: SessionController, tool: str, arguments: dict | None = None) -> str:
    await controller.connect()
    try:
        result = await controller.env.call_tool(tool, arguments or {})
    finally:
        await controller.close_env()
    return result.blocks[0].text


async def test_without_handlers_the_client_declares_nothing(asking: ServedMcp) -> None:
    declared = json.loads(
        await call_text(SessionController(McpTarget(urls=[asking.url])), "capabilities")
    )
    assert declared == {"elicitation": False, "sampling": False, "roots": False}


async def test_each_handler_set_is_declared(asking: ServedMcp) -> None:
    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.roots = lambda: ["."]
    controller.client_handlers.sample = lambda request: None
    declared = json.loads(await call_text(controller, "capabilities"))
    assert declared == {"elicitation": False, "sampling": True, "roots": True}


async def test_an_elicitation_reaches_the_handler_and_its_answer_the_server(
    asking: ServedMcp,
) -> None:
    asked: list[ElicitRequest] = []

    async def elicit(request: ElicitRequest) -> ElicitAnswer:
        asked.append(request)
        return ElicitAnswer("accept", {"name": "Ada", "guests": 3, "seating": "terrace"})

    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.elicit = elicit
    reply = json.loads(await call_text(controller, "book"))
    assert reply == {
        "action": "accept",
        "data": {"name": "Ada", "guests": 3, "seating": "terrace", "vegetarian": False},
    }
    [request] = asked
    assert request.endpoint == asking.url and request.message == "Book a table [b]tonight[/b]?"
    assert set(request.schema["properties"]) == {"name", "guests", "seating", "vegetarian"}
    assert not request.url_mode


async def test_a_url_elicitation_carries_the_url(asking: ServedMcp) -> None:
    asked: list[ElicitRequest] = []

    async def elicit(request: ElicitRequest) -> ElicitAnswer:
        asked.append(request)
        return ElicitAnswer("decline")

    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.elicit = elicit
    assert json.loads(await call_text(controller, "visit")) == {"action": "decline"}
    assert asked[0].url == "https://example.com/login" and asked[0].message == "Sign in to continue"


async def test_a_sampling_reply_reaches_the_server(asking: ServedMcp) -> None:
    asked: list[SampleRequest] = []

    async def sample(request: SampleRequest) -> str:
        asked.append(request)
        return "Paris."

    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.sample = sample
    text = await call_text(controller, "ask_model", {"question": "Capital of France?"})
    assert text == "reply from human (fleet-tui): Paris."
    [request] = asked
    assert [(m.role, m.text) for m in request.messages] == [("user", "Capital of France?")]
    assert request.system_prompt == "Be brief." and request.max_tokens == 50


async def test_declined_sampling_is_an_error_for_the_server(asking: ServedMcp) -> None:
    async def sample(request: SampleRequest) -> None:
        return None

    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.sample = sample
    text = await call_text(controller, "ask_model", {"question": "?"})
    assert text.startswith("no reply:") and "declined" in text


async def test_roots_are_reported_as_file_uris(asking: ServedMcp, tmp_path: Path) -> None:
    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.roots = lambda: [str(tmp_path), "file:///srv/data"]
    roots = json.loads(await call_text(controller, "roots"))
    assert roots == [tmp_path.resolve().as_uri(), "file:///srv/data"]


async def test_an_answer_the_result_cannot_hold_is_an_error_for_the_server(
    asking: ServedMcp,
) -> None:
    async def elicit(request: ElicitRequest) -> ElicitAnswer:
        return ElicitAnswer("accept", {"name": {"nested": "objects are not allowed"}})

    controller = SessionController(McpTarget(urls=[asking.url]))
    controller.client_handlers.elicit = elicit
    await controller.connect()
    try:
        result = await controller.env.call_tool("book", {})
    finally:
        await controller.close_env()
    assert result.is_error and "validation errors for ElicitResult" in result.blocks[0].text
