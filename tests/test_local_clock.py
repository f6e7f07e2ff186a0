"""The local envs' logical clock: the same calls after the same reset give the same results."""

from __future__ import annotations

import contextlib
import sqlite3
from datetime import UTC, datetime

import httpx

from fleet_tui.local.clock import FALLBACK_EPOCH, LogicalClock, seed_epoch
from tests.fixtures.local_host import AUTH, mcp_session

TRACKER_EPOCH = "2026-01-08T14:01:00Z"
"""One minute after the newest timestamp in the tracker's seed (issue 8, 14:00)."""

TRACKER_CALLS = [
    (
        "mcp",
        "create_issue",
        {"project": "OPS", "title": "Rotate keys", "subtasks": [{"title": "a"}]},
    ),
    ("mcp", "update_issue", {"issue_id": 2, "changes": {"status": "in_progress"}}),
    ("api/v1/mcp", "add_comment", {"issue_id": 2, "body": "on it", "author": "bob"}),
    ("api/v1/mcp", "bulk_label", {"issue_ids": [1, 2], "add": ["triaged"]}),
    ("mcp", "update_issue", {"issue_id": 1, "changes": {"priority": "high"}}),
    ("mcp", "get_issue", {"issue_id": 2}),
    ("mcp", "list_issues", {"sort": {"by": "updated_at"}, "limit": 5}),
]

TODO_CALLS = [
    {"action": "left_click", "coordinate": [500, 128]},
    {"action": "type", "text": "Buy milk"},
    {"action": "key", "text": "Return"},
    {"action": "screenshot"},
]


@contextlib.asynccontextmanager
async def instance(fleet_client, env_key: str):
    """A new instance whose databases `env.db()` can query; closed at the end."""
    env = await fleet_client.make(env_key)
    try:
        await env.instance.load()
        yield env
    finally:
        await env.close()


@contextlib.asynccontextmanager
async def mcp_sessions(root: str):
    """One initialized MCP session per endpoint path of the instance at `root`."""
    async with contextlib.AsyncExitStack() as stack:
        sessions = {}
        for path in ("mcp", "api/v1/mcp"):
            sessions[path] = await stack.enter_async_context(mcp_session(f"{root}{path}"))
        yield sessions


async def run_calls(sessions: dict, calls: list[tuple[str, str, dict]]) -> list[bytes]:
    results = []
    for path, tool, arguments in calls:
        result = await sessions[path].call_tool(tool, arguments)
        assert not result.is_error, result.content
        results.append(result.model_dump_json().encode())
    return results


async def test_same_tracker_calls_after_two_resets_give_byte_identical_results(fleet_client):
    async with (
        instance(fleet_client, "tracker") as env,
        mcp_sessions(env.urls.root) as sessions,
    ):
        await env.reset()
        first = await run_calls(sessions, TRACKER_CALLS)
        await env.reset()
        second = await run_calls(sessions, TRACKER_CALLS)
        assert first == second
        issue = (await sessions["mcp"].call_tool("get_issue", {"issue_id": 9})).structured_content
        assert (issue["created_at"], issue["updated_at"]) == (TRACKER_EPOCH, TRACKER_EPOCH)
        comment = await env.db().query("SELECT created_at FROM comments WHERE id = 3")
        assert comment.rows == [["2026-01-08T14:03:00Z"]]
        updated = await env.db().query("SELECT updated_at FROM issues WHERE id IN (1, 2)")
        # bulk_label took the 14:04 tick, so issue 1's update is stamped 14:05
        assert updated.rows == [["2026-01-08T14:05:00Z"], ["2026-01-08T14:02:00Z"]]


async def test_same_todo_actions_after_two_resets_give_identical_screens_and_rows(fleet_client):
    calls = [("mcp", "computer", arguments) for arguments in TODO_CALLS]
    async with (
        instance(fleet_client, "desktop-todo") as env,
        mcp_sessions(env.urls.root) as sessions,
    ):
        await env.reset()
        first = await run_calls(sessions, calls)
        rows = (await env.db().query("SELECT * FROM todos")).rows
        await env.reset()
        second = await run_calls(sessions, calls)
        assert first == second  # the screenshots' PNG bytes included
        assert (await env.db().query("SELECT * FROM todos")).rows == rows
    # the seed's newest todo is 09:04; the click and the typing took 09:05 and 09:06
    assert rows[-1][1:] == ["Buy milk", 0, "2026-01-05T09:07:00Z"]


async def test_a_reset_timestamp_starts_the_clock_and_refused_calls_do_not_tick(fleet_client):
    start = int(datetime(2030, 5, 1, 12, 0, tzinfo=UTC).timestamp())
    async with instance(fleet_client, "tracker") as env:
        response = await env.reset(timestamp=start)
        assert "clock at 2030-05-01T12:00:00Z" in response.message
        async with mcp_sessions(env.urls.root) as sessions:
            refused = {"issue_id": 2, "changes": {"assignee": "nobody"}}
            assert (await sessions["mcp"].call_tool("update_issue", refused)).is_error
            await run_calls(sessions, TRACKER_CALLS[:2])  # the refused call took no tick
        updated = await env.db().query("SELECT id, updated_at FROM issues WHERE id IN (2, 9)")
    assert updated.rows == [[2, "2030-05-01T12:01:00Z"], [9, "2030-05-01T12:00:00Z"]]


async def test_a_bad_reset_timestamp_is_a_400_that_changes_nothing(fleet_client):
    bad = {
        "soon": "timestamp must be an integer",
        1.5: "timestamp must be an integer",
        True: "timestamp must be an integer",
        -1: "timestamp must be between 0 and",
    }
    async with instance(fleet_client, "tracker") as env, httpx.AsyncClient(headers=AUTH) as client:
        await env.db().exec("UPDATE issues SET status = 'done' WHERE id = 1")
        for timestamp, message in bad.items():
            response = await client.post(
                f"{env.urls.manager.api}/reset", json={"seed": None, "timestamp": timestamp}
            )
            assert response.status_code == 400, timestamp
            assert message in response.json()["detail"]
        status = await env.db().query("SELECT status FROM issues WHERE id = 1")
    assert status.rows == [["done"]]


def test_the_epoch_follows_the_newest_seed_timestamp_and_ticks_a_minute_per_call():
    conn = sqlite3.connect(":memory:")
    assert seed_epoch(conn) == FALLBACK_EPOCH
    conn.execute("CREATE TABLE t (name TEXT, created_at TEXT, closed_at TEXT)")
    conn.execute("INSERT INTO t VALUES ('2099-01-01T00:00:00Z', '2026-03-01T10:00:00Z', NULL)")
    conn.execute("INSERT INTO t VALUES ('x', 'not a time', '2026-03-02T08:30:00+00:00')")
    clock = LogicalClock(seed_epoch(conn))  # `name` is not a *_at column: it does not count
    assert [clock.tick(), clock.tick()] == ["2026-03-02T08:31:00Z", "2026-03-02T08:32:00Z"]
    clock.restart(0)
    assert clock.tick() == "1970-01-01T00:00:00Z"
    clock.restart()
    assert clock.tick() == "2026-03-02T08:31:00Z"
