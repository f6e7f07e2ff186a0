"""A tools/call run as an MCP task (protocol 2025-11-25): for tools whose
`execution.taskSupport` is "required", which answer a plain call with -32601.

The call carries a `task` field and the server answers at once with the task it created; the
client then polls `tasks/get` (waiting the task's `pollInterval` between polls) until the task
ends or needs input, and fetches the tool's own result with `tasks/result` (which waits for the
end and carries the server's requests, such as an elicitation, meanwhile). Each change of status
is told through the call's progress callback, so it restarts the call's silence clock
(call_clock.py) and shows where progress shows. Cancelling the call (its time limit, esc in the
app) sends `tasks/cancel` so the server stops the work. All of it runs on the SDK's session with
the SDK's own task models (`send_request`), not a second client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.tool_call import Progress

if TYPE_CHECKING:
    import mcp.types
    from mcp.client.session import ClientSession

TaskSeen = Callable[["mcp.types.Task"], None]
"""Told of the task each time it is created or changes status."""

DEFAULT_POLL_S = 1.0
"""Seconds between `tasks/get` polls when the task suggests no `pollInterval`."""

POLL_BOUNDS_S = (0.05, 30.0)
"""A server's `pollInterval` is kept within these seconds: neither a busy loop nor a long nap."""

CANCEL_WAIT_S = 5.0
"""Seconds a cancelled call waits for the server to take its `tasks/cancel`."""

WAITING = frozenset({"working"})
"""Statuses in which the client keeps polling; any other one goes to `tasks/result`."""


_optional_as_task: ContextVar[bool] = ContextVar("optional_as_task", default=False)


@contextlib.contextmanager
def optional_tools_as_tasks(chosen: bool) -> Iterator[None]:
    """Calls made in this block run tools whose task support is "optional" as tasks too
    (`--as-task`, the call form's switch); by default they get a plain call."""
    token = _optional_as_task.set(chosen)
    try:
        yield
    finally:
        _optional_as_task.reset(token)


def runs_as_task(task_support: str | None) -> bool:
    """Whether a tool with this `execution.taskSupport` is called as a task now: always when
    "required", when "optional" only inside `optional_tools_as_tasks(True)`."""
    return task_support == "required" or (task_support == "optional" and _optional_as_task.get())


def poll_seconds(task: mcp.types.Task) -> float:
    """How long to wait before asking about `task` again: its `pollInterval`, within bounds."""
    if task.poll_interval is None:
        return DEFAULT_POLL_S
    low, high = POLL_BOUNDS_S
    return min(max(task.poll_interval / 1000, low), high)


def status_line(task: mcp.types.Task) -> str:
    """The task's status as a progress message: `task working: Gathering sources...`."""
    message = f": {task.status_message}" if task.status_message else ""
    return f"task {task.status}{message}"


def task_tool_call(
    name: str, arguments: dict[str, Any], progress: Progress, seen: TaskSeen
) -> Callable[[ClientSession], Awaitable[mcp.types.CallToolResult]]:
    """The tools/call of `name` as a task, to run on a session: created, polled until it ends,
    its result fetched; `progress` hears the server's progress and each change of status,
    `seen` the task each time it is created or changes."""
    return lambda session: _run_task(session, name, arguments, progress, seen)


async def _run_task(
    session: ClientSession,
    name: str,
    arguments: dict[str, Any],
    progress: Progress,
    seen: TaskSeen,
) -> mcp.types.CallToolResult:
    import mcp.types

    request = mcp.types.CallToolRequest(
        params=mcp.types.CallToolRequestParams(
            name=name, arguments=arguments, task=mcp.types.TaskMetadata()
        )
    )
    created = await _send_task_augmented(session, request, progress)
    task: mcp.types.Task = created.task
    try:
        changes = 1
        seen(task)
        await progress(changes, None, status_line(task))
        while task.status in WAITING:
            await asyncio.sleep(poll_seconds(task))
            polled = await session.send_request(
                mcp.types.GetTaskRequest(
                    params=mcp.types.GetTaskRequestParams(task_id=task.task_id)
                ),
                mcp.types.GetTaskResult,
            )
            if (polled.status, polled.status_message) != (task.status, task.status_message):
                changes += 1
                seen(polled)
                await progress(changes, None, status_line(polled))
            task = polled
        return await session.send_request(
            mcp.types.GetTaskPayloadRequest(
                params=mcp.types.GetTaskPayloadRequestParams(task_id=task.task_id)
            ),
            mcp.types.CallToolResult,
        )
    except asyncio.CancelledError:
        if (cancelled := await _cancel(session, task.task_id)) is not None:
            seen(cancelled)
        raise


async def list_tasks(session: ClientSession, pages: int) -> list[mcp.types.Task]:
    """The tasks the server keeps for this session (`tasks/list`), up to `pages` pages."""
    import mcp.types

    tasks: list[mcp.types.Task] = []
    cursor: str | None = None
    for _ in range(pages):
        params = mcp.types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.send_request(
            mcp.types.ListTasksRequest(params=params), mcp.types.ListTasksResult
        )
        tasks.extend(page.tasks)
        if not (cursor := page.next_cursor):
            break
    return tasks


async def _send_task_augmented(
    session: ClientSession, request: mcp.types.CallToolRequest, progress: Progress
) -> mcp.types.CreateTaskResult:
    """Send the task-augmented tools/call and read its CreateTaskResult.

    `send_request` checks every tools/call answer as a CallToolResult before reading it as the
    type asked for, and a CreateTaskResult has no `content`: so this one request goes through
    the session's own stamping and dispatcher, as `send_request` does, without that check.
    """
    import mcp.types

    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    options: Any = {"on_progress": progress}
    session._stamp(data, options)
    raw = await session._dispatcher.send_raw_request(data["method"], data["params"], options)
    return mcp.types.CreateTaskResult.model_validate(raw, by_name=False)


async def _cancel(session: ClientSession, task_id: str) -> mcp.types.Task | None:
    """Tell the server to stop the task: the task as it says it is now, or None when it did not
    answer in time (a server that cannot take it is not waited for long)."""
    import mcp.types

    request = mcp.types.CancelTaskRequest(params=mcp.types.CancelTaskRequestParams(task_id=task_id))
    with contextlib.suppress(Exception):
        return await asyncio.wait_for(
            session.send_request(request, mcp.types.CancelTaskResult), CANCEL_WAIT_S
        )
    return None
