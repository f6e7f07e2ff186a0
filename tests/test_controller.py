"""The session controller without any UI, against real MCP servers and the local Fleet host:
connecting, calls and their records, events, the computer-action queue, reset, tasks, verdicts."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver import MCPServer

from fleet_tui.controller import (
    CallAdded,
    CallStatus,
    ConnectionState,
    EnvClosed,
    Progress,
    SessionController,
)
from fleet_tui.envs.base import EnvError, Verdict
from fleet_tui.envs.targets import FleetTarget, McpTarget, Target
from fleet_tui.local import bundled_task_files
from fleet_tui.session_records import CallFinished, SessionEvent
from fleet_tui.tasks.files import load_tasks
from tests.fixtures.local_host import TEST_API_KEY
from tests.fixtures.mcp_servers import serve_in_thread


def watched(target: Target) -> tuple[SessionController, list[SessionEvent]]:
    session = SessionController(target)
    events: list[SessionEvent] = []
    session.subscribe(events.append)
    return session, events


def record_events(events: list[SessionEvent]) -> list[SessionEvent]:
    """The events about call records (the protocol log's Traffic events left out)."""
    return [e for e in events if isinstance(e, CallAdded | CallFinished)]


async def test_calls_are_numbered_records_announced_as_they_start_and_finish(two_servers):
    session, events = watched(two_servers)
    try:
        tools = await session.connect()
        assert session.state == ConnectionState.CONNECTED and session.connected
        assert session.tools == tools and session.tool_named("echo") is not None
        assert any(isinstance(e, Progress) for e in events)
        events.clear()

        echo = session.add_record("echo", {"text": "hi"})
        result = await session.call(echo)
        assert result is not None and result.text() == "hi"
        assert (echo.number, echo.status, echo.result) == (1, CallStatus.OK, result)
        assert record_events(events) == [CallAdded(echo), CallFinished(echo)]

        failing = session.add_record("fail", {"reason": "no luck"})
        assert await session.call(failing) is not None
        assert (failing.number, failing.status) == (2, CallStatus.ERROR)

        missing = session.add_record("no_such_tool", {})
        assert await session.call(missing) is None
        assert missing.status == CallStatus.FAILED and "no_such_tool" in missing.message
        assert session.last_call() is missing
        assert [r.number for r in session.records] == [1, 2, 3]
    finally:
        await session.close()
    assert session.env is None
    closed = [e for e in events if isinstance(e, EnvClosed)]
    assert closed and closed[-1].failure is None


async def test_a_failed_connect_leaves_the_session_disconnected(dead_mcp_url):
    session, _ = watched(McpTarget(urls=[dead_mcp_url]))
    with pytest.raises(EnvError):
        await session.connect()
    assert session.state == ConnectionState.DISCONNECTED and not session.connected
    await session.close()


async def test_reconnect_reopens_the_same_env_and_only_when_connected(two_servers):
    session, _ = watched(two_servers)
    session.start_connecting(reopen=True)
    assert session.state == ConnectionState.CONNECTING  # nothing to reopen yet
    try:
        await session.connect()
        env = session.env
        session.start_connecting(reopen=True)
        assert session.state == ConnectionState.RECONNECTING
        await session.connect()
        assert session.env is env and session.state == ConnectionState.CONNECTED
    finally:
        await session.close()


@pytest.fixture(scope="module")
def text_only_computer():
    """A `computer` tool that answers in words, never with a picture."""
    server = MCPServer("words", log_level="WARNING")

    @server.tool(description="Act on the screen; says what it did.")
    def computer(action: str) -> str:
        return f"did {action}"

    served = serve_in_thread("words", server)
    yield served
    served.stop()


async def test_a_computer_action_that_shows_nothing_is_followed_by_a_screenshot(
    text_only_computer,
):
    session, _ = watched(McpTarget(urls=[text_only_computer.url]))
    try:
        await session.connect()
        assert session.computer_use
        await session.call(session.add_record("computer", {"action": "left_click"}))
        assert session.pending_actions == [{"action": "screenshot"}]
        queued = session.next_pending()
        assert queued is not None and queued.arguments == {"action": "screenshot"}
        assert session.pending_actions == [] and session.next_pending() is None
        await session.call(queued)
        assert session.pending_actions == []  # a screenshot asks for no other
    finally:
        await session.close()


def bundled_task(key: str):
    tasks = [t for path in bundled_task_files().values() for t in load_tasks(path)]
    return next(t for t in tasks if t.key == key)


async def test_tasks_reset_or_switch_the_env_and_verdicts_follow_the_last_call(local_host):
    target = FleetTarget(env_key="tracker", base_url=local_host.base_url, api_key=TEST_API_KEY)
    session, events = watched(target)
    try:
        await session.connect()
        tool = session.tools[0].name
        await session.call(session.add_record(tool, {}))
        assert session.start_task(bundled_task("tracker-plan-dark-mode")) is False
        assert session.target is target  # same env: a reset starts the task

        session.episode.record(1.0, True)
        record, outcome = await session.reset(7)
        assert outcome is not None and outcome.success
        assert (record.tool, record.arguments, record.status) == (
            "<reset>",
            {"seed": 7},
            CallStatus.OK,
        )
        assert session.episode.steps == 0 and not session.episode.done

        verdicts = [
            Verdict(task_key="t", success=True, passed=True),
            Verdict(task_key="t", success=True, passed=False),
            Verdict(task_key="t", success=False),
        ]
        for verdict in verdicts:
            session.record_verdict(verdict, after="#1 x", headline="h", text="t", elapsed_s=0.5)
        statuses = [r.status for r in session.records if r.tool == "<verify>"]
        assert statuses == [CallStatus.PASS, CallStatus.FAIL, CallStatus.ERROR]
        assert [r.number for r in session.records] == [1, 2, 3, 4, 5]
        assert session.last_call() is session.records[0]  # verdicts and resets are not calls
        added = record_events(events)[-1]
        assert isinstance(added, CallAdded) and added.record is session.records[-1]

        assert session.start_task(bundled_task("todo-add-buy-milk")) is True
        assert session.target.env_key.startswith("desktop-todo")
        assert session.target.base_url == target.base_url
        await session.connect()  # closes the tracker instance, provisions the task's env
        assert session.env is not None and session.env.info.env_key == "desktop-todo"
        assert any(isinstance(e, EnvClosed) and e.info.env_key == "tracker" for e in events)
    finally:
        await session.close()


class CountingServer(MCPServer):
    """An MCP server that counts the tools/list requests it answers."""

    listings = 0

    async def list_tools(self):  # type: ignore[no-untyped-def]
        CountingServer.listings += 1
        return await super().list_tools()


async def test_connecting_and_reconnecting_list_the_tools_once_each():
    server = CountingServer("counting", log_level="WARNING")

    @server.tool(description="Says hello.")
    def hello() -> str:
        return "hello"

    served = serve_in_thread("counting", server)
    session, _ = watched(McpTarget(urls=[served.url]))
    try:
        tools = await session.connect()
        assert [tool.name for tool in tools] == ["hello"]
        assert CountingServer.listings == 1
        session.start_connecting(reopen=True)
        await session.connect()
        assert CountingServer.listings == 2
    finally:
        await session.close()
        served.stop()
