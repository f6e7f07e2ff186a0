"""Every bundled task: its verifier fails on a fresh instance and passes after a scripted
solution made of MCP tool calls. Verifiers run through the SDK (`verify_detailed`)."""

from __future__ import annotations

import json

import pytest

from fleet_tui.local import bundled_task_files
from tests.fixtures.local_host import mcp_session

ROW = 60  # one todo row on screen (see todo_gui)


def todo_row(index: int, x: int) -> list[int]:
    return [x, 240 + index * ROW + 26]


SOLUTIONS: dict[str, list[tuple[str, str, dict]]] = {
    "tracker-assign-safari-crash": [
        (
            "mcp",
            "update_issue",
            {"issue_id": 5, "changes": {"assignee": "carol", "status": "in_progress"}},
        ),
    ],
    "tracker-file-rate-limit-docs": [
        (
            "mcp",
            "create_issue",
            {
                "project": "API",
                "title": "Document rate limit headers",
                "priority": "high",
                "labels": ["docs"],
                "assignee": "dave",
            },
        ),
    ],
    "tracker-close-footer-link": [
        ("api/v1/mcp", "add_comment", {"issue_id": 7, "body": "Fixed in release 2.4"}),
        ("mcp", "update_issue", {"issue_id": 7, "changes": {"status": "closed"}}),
    ],
    "tracker-triage-unassigned-bugs": [
        ("api/v1/mcp", "bulk_label", {"issue_ids": [5, 8], "add": ["triaged"]}),
    ],
    "tracker-plan-dark-mode": [
        (
            "mcp",
            "create_issue",
            {
                "project": "WEB",
                "title": "Launch dark mode",
                "subtasks": [{"title": "Design palette"}, {"title": "Implement toggle"}],
            },
        ),
    ],
    "todo-add-buy-milk": [
        ("mcp", "computer", {"action": "left_click", "coordinate": [500, 128]}),
        ("mcp", "computer", {"action": "type", "text": "Buy milk"}),
        ("mcp", "computer", {"action": "key", "text": "Return"}),
    ],
    "todo-complete-weekly-report": [
        ("mcp", "computer", {"action": "left_click", "coordinate": todo_row(0, 74)}),
    ],
    "todo-delete-dentist": [
        ("mcp", "computer", {"action": "left_click", "coordinate": todo_row(1, 1180)}),
    ],
    "todo-rename-plants": [
        ("mcp", "computer", {"action": "double_click", "coordinate": todo_row(2, 300)}),
        ("mcp", "computer", {"action": "key", "text": " ".join(["BackSpace"] * 6)}),
        ("mcp", "computer", {"action": "type", "text": "the plants"}),
        ("mcp", "computer", {"action": "key", "text": "Return"}),
    ],
}


def all_tasks() -> list[tuple[str, dict]]:
    return [
        (str(path), task)
        for path in bundled_task_files().values()
        for task in json.loads(path.read_text())
    ]


def test_task_files_are_in_fleet_format_and_cover_both_modalities():
    tasks = [task for _, task in all_tasks()]
    assert len(tasks) >= 6
    assert {task["task_modality"] for task in tasks} == {"tool_use", "computer_use"}
    for task in tasks:
        assert {"key", "prompt", "env_key", "version", "task_modality", "verifier_func"} <= set(
            task
        )
    assert set(SOLUTIONS) == {task["key"] for task in tasks}


async def call_tools(root: str, steps: list[tuple[str, str, dict]]) -> None:
    for path, tool, arguments in steps:
        async with mcp_session(root + path) as session:
            result = await session.call_tool(tool, arguments)
            assert not result.is_error, result.content


@pytest.mark.parametrize(
    ("path", "task_json"), all_tasks(), ids=[task["key"] for _, task in all_tasks()]
)
async def test_verifier_fails_fresh_and_passes_after_the_solution(fleet_client, path, task_json):
    tasks = {task.key: task for task in await fleet_client.load_tasks_from_file(path)}
    task = tasks[task_json["key"]]
    env = await fleet_client.make(task.env_key)
    try:
        fresh = await task.verify_detailed_async(env)
        assert fresh.success, fresh.error
        assert fresh.result == 0, fresh.stdout
        await call_tools(env.urls.root, SOLUTIONS[task.key])
        solved = await task.verify_detailed_async(env)
        assert solved.success, solved.error
        assert solved.result == 1, solved.stdout
        await env.reset()
        assert (await task.verify_detailed_async(env)).result == 0  # reset undoes the solution
    finally:
        await env.close()
