"""A server's own requests (elicitation, sampling, roots) reach the port given to the session
and their answers reach the server; only what the port answers is declared."""

from __future__ import annotations

import json
from pathlib import Path

from fleet_tui.commands.sign_in import PrintedSignIn
from fleet_tui.controller import SessionController
from fleet_tui.envs.server_requests import ElicitAnswer, ElicitRequest, SampleRequest
from fleet_tui.envs.targets import McpTarget
from tests.fixtures.mcp_servers import ServedMcp


class Elicits:
    """A port that answers elicitations only, with `answer`, keeping what was asked."""

    def __init__(self, answer: ElicitAnswer) -> None:
        self.answer = answer
        self.asked: list[ElicitRequest] = []

    async def elicit(self, request: ElicitRequest) -> ElicitAnswer:
        self.asked.append(request)
        return self.answer


class Samples:
    """A port that answers sampling only, with `reply`, keeping what was asked."""

    def __init__(self, reply: str | None) -> None:
        self.reply = reply
        self.asked: list[SampleRequest] = []

    async def sample(self, request: SampleRequest) -> str | None:
        self.asked.append(request)
        return self.reply


class OffersRoots:
    """A port that offers roots only."""

    def __init__(self, roots: list[str]) -> None:
        self.offered = roots

    def roots(self) -> list[str]:
        return self.offered


class SamplesWithRoots(Samples, OffersRoots):
    def __init__(self) -> None:
        Samples.__init__(self, None)
        OffersRoots.__init__(self, ["."])


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
    controller = SessionController(McpTarget(urls=[asking.url]), requests=SamplesWithRoots())
    declared = json.loads(await call_text(controller, "capabilities"))
    assert declared == {"elicitation": False, "sampling": True, "roots": True}


async def test_the_proxys_port_answers_sign_ins_only_and_declares_nothing(
    asking: ServedMcp,
) -> None:
    controller = SessionController(McpTarget(urls=[asking.url]), requests=PrintedSignIn())
    assert controller.client_handlers.sign_in is not None
    declared = json.loads(await call_text(controller, "capabilities"))
    assert declared == {"elicitation": False, "sampling": False, "roots": False}


async def test_an_elicitation_reaches_the_handler_and_its_answer_the_server(
    asking: ServedMcp,
) -> None:
    answers = Elicits(ElicitAnswer("accept", {"name": "Ada", "guests": 3, "seating": "terrace"}))
    controller = SessionController(McpTarget(urls=[asking.url]), requests=answers)
    reply = json.loads(await call_text(controller, "book"))
    assert reply == {
        "action": "accept",
        "data": {"name": "Ada", "guests": 3, "seating": "terrace", "vegetarian": False},
    }
    [request] = answers.asked
    assert request.endpoint == asking.url and request.message == "Book a table [b]tonight[/b]?"
    assert set(request.schema["properties"]) == {"name", "guests", "seating", "vegetarian"}
    assert not request.url_mode


async def test_a_url_elicitation_carries_the_url(asking: ServedMcp) -> None:
    answers = Elicits(ElicitAnswer("decline"))
    controller = SessionController(McpTarget(urls=[asking.url]), requests=answers)
    assert json.loads(await call_text(controller, "visit")) == {"action": "decline"}
    asked = answers.asked
    assert asked[0].url == "https://example.com/login" and asked[0].message == "Sign in to continue"


async def test_a_sampling_reply_reaches_the_server(asking: ServedMcp) -> None:
    answers = Samples("Paris.")
    controller = SessionController(McpTarget(urls=[asking.url]), requests=answers)
    text = await call_text(controller, "ask_model", {"question": "Capital of France?"})
    assert text == "reply from human (fleet-tui): Paris."
    [request] = answers.asked
    assert [(m.role, m.text) for m in request.messages] == [("user", "Capital of France?")]
    assert request.system_prompt == "Be brief." and request.max_tokens == 50


async def test_declined_sampling_is_an_error_for_the_server(asking: ServedMcp) -> None:
    controller = SessionController(McpTarget(urls=[asking.url]), requests=Samples(None))
    text = await call_text(controller, "ask_model", {"question": "?"})
    assert text.startswith("no reply:") and "declined" in text


async def test_roots_are_reported_as_file_uris(asking: ServedMcp, tmp_path: Path) -> None:
    answers = OffersRoots([str(tmp_path), "file:///srv/data"])
    controller = SessionController(McpTarget(urls=[asking.url]), requests=answers)
    roots = json.loads(await call_text(controller, "roots"))
    assert roots == [tmp_path.resolve().as_uri(), "file:///srv/data"]


async def test_an_answer_the_result_cannot_hold_is_an_error_for_the_server(
    asking: ServedMcp,
) -> None:
    answers = Elicits(ElicitAnswer("accept", {"name": {"nested": "objects are not allowed"}}))
    controller = SessionController(McpTarget(urls=[asking.url]), requests=answers)
    await controller.connect()
    try:
        result = await controller.env.call_tool("book", {})
    finally:
        await controller.close_env()
    assert result.is_error and "validation errors for ElicitResult" in result.blocks[0].text
