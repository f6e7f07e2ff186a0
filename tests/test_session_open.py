"""One way into an env for the front ends that run work on one (headless commands, the
warm-session daemon): `open_session` connects the controller, yields it and closes it however
the work ends, telling progress and warnings to an `Output`; the controller's raising calls
and the forwarded command line's parser, against the tests' real MCP servers."""

from __future__ import annotations

import asyncio
import io

import pytest

from fleet_tui.commands import command_parser
from fleet_tui.commands.command_parser import ParseError
from fleet_tui.commands.output import Output
from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.targets import McpTarget
from fleet_tui.session_open import open_session
from fleet_tui.session_records import CallStatus, EnvClosed, SessionEvent
from tests.fixtures.mcp_servers import ServedMcp


def captured() -> tuple[Output, io.StringIO]:
    """An Output whose stderr is kept (stdout too, unused by the session)."""
    stderr = io.StringIO()
    return Output(io.StringIO(), stderr), stderr


async def test_the_session_is_connected_inside_and_closed_after_the_work_fails(
    mcp_alpha: ServedMcp, dead_mcp_url: str
) -> None:
    out, stderr = captured()
    events: list[SessionEvent] = []
    target = McpTarget(urls=[mcp_alpha.url, dead_mcp_url])
    opened: SessionController | None = None
    with pytest.raises(ValueError, match="the work failed"):
        async with open_session(target, None, notes=out, listeners=[events.append]) as session:
            opened = session
            assert session.connected and session.tool_named("whoami") is not None
            raise ValueError("the work failed")
    assert opened is not None and opened.env is None
    assert any(isinstance(event, EnvClosed) for event in events)
    lines = stderr.getvalue().splitlines()
    assert lines[0] == f"Connecting to MCP endpoints {mcp_alpha.url}, {dead_mcp_url}"
    assert any(line.startswith("warning: MCP endpoint failed: ") for line in lines)


async def test_a_cancelled_work_still_closes_the_session(mcp_alpha: ServedMcp) -> None:
    out, _ = captured()
    events: list[SessionEvent] = []
    working = asyncio.Event()

    async def work_forever() -> None:
        target = McpTarget(urls=[mcp_alpha.url])
        async with open_session(target, None, notes=out, listeners=[events.append]):
            working.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(work_forever())
    await asyncio.wait_for(working.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [event for event in events if isinstance(event, EnvClosed)]


async def test_a_session_that_cannot_connect_raises_and_is_closed(dead_mcp_url: str) -> None:
    out, _ = captured()
    with pytest.raises(EnvError, match="could not connect"):
        async with open_session(McpTarget(urls=[dead_mcp_url]), None, notes=out):
            raise AssertionError("no work without a connection")


async def test_the_raising_call_and_reset_finish_their_records_first(mcp_alpha: ServedMcp) -> None:
    out, _ = captured()
    async with open_session(McpTarget(urls=[mcp_alpha.url]), None, notes=out) as session:
        result = await session.call_tool("whoami", {})
        assert result.blocks[0].text == "alpha"  # type: ignore[union-attr]
        with pytest.raises(EnvError):
            await session.call_tool("no_such_tool", {})
        with pytest.raises(EnvError):
            await session.reset_env(None)  # plain MCP servers cannot be reset
        statuses = [(r.tool, r.status) for r in session.records]
    assert statuses == [
        ("whoami", CallStatus.OK),
        ("no_such_tool", CallStatus.FAILED),
        ("<reset>", CallStatus.FAILED),
    ]


async def test_a_session_serving_command_after_command_forgets_their_records(
    mcp_alpha: ServedMcp,
) -> None:
    out, _ = captured()
    async with open_session(McpTarget(urls=[mcp_alpha.url]), None, notes=out) as session:
        for _ in range(3):
            await session.call_tool("whoami", {})
        assert len(session.records) == 3 and session.episode.steps == 3
        session.forget_records()
        assert session.records == [] and session.episode.steps == 0
        await session.call_tool("whoami", {})
        assert [record.number for record in session.records] == [1]


@pytest.mark.parametrize("words", [[], ["--help"], ["--mcp", "http://x/mcp", "t", "--bogus"]])
def test_a_forwarded_command_line_is_read_without_printing_or_exiting(words, capsys) -> None:
    with pytest.raises((ParseError, SystemExit)) as raised:
        command_parser("call", forwarded=True).parse_args(words)
    assert raised.type is ParseError
    assert capsys.readouterr() == ("", "")
