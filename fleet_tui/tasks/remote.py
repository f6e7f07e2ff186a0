"""Remote verifier mode: the SDK's `verify_detailed`, run by the Fleet host against the instance.

The SDK executes a verifier's module code on this machine to find its function before it
uploads it (`load_verifier`): call these from a child process (`remote_child`), never ours.
"""

from __future__ import annotations

import math
from typing import Any

from fleet_tui.envs.base import EnvError, Task, Verdict
from fleet_tui.tasks.local_verify import verdict_from_outcome
from fleet_tui.text import error_message


def load_verifier(task: Task) -> Any:
    """The SDK's verifier for `task`'s code. This runs the code's module level."""
    from fleet._async.tasks import verifier_from_string

    try:
        return verifier_from_string(
            verifier_func=task.verifier_code or "", verifier_id=task.key, verifier_key=task.key
        )
    except Exception as error:  # what the module code raised, wrapped in a ValueError
        raise EnvError(f"could not load the verifier of task {task.key}: {error}") from None


class TimedEnv:
    """An SDK env whose verifier executions ask the host for our time limit (the SDK's
    `verify_detailed` sends none, so the host's 30 s applied)."""

    def __init__(self, sdk_env: Any, timeout_s: float) -> None:
        self.sdk_env = sdk_env
        self.timeout = max(1, math.ceil(timeout_s))  # whole seconds, as the SDK types it

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sdk_env, name)

    async def execute_verifier_remote(self, *args: Any, **kwargs: Any) -> Any:
        return await self.sdk_env.execute_verifier_remote(
            *args, **{**kwargs, "timeout": self.timeout}
        )


async def verify_remote(
    sdk_env: Any,
    task: Task,
    verifier: Any,
    final_answer: str | None = None,
    timeout_s: float | None = None,
) -> Verdict:
    """Run `task`'s loaded `verifier` on the Fleet host against `sdk_env`'s instance, stopped by
    the host after `timeout_s` (when given).

    A verifier that raises or scores low is a Verdict; a host that cannot run it is an EnvError.
    """
    import fleet

    sdk_task = fleet.Task(
        key=task.key,
        prompt=task.prompt,
        env_id=task.env_key or sdk_env.env_key,
        version=task.version,
        verifier_func=task.verifier_code,
        verifier=verifier,
    )
    kwargs = {"final_answer": final_answer} if final_answer is not None else {}
    try:
        env = sdk_env if timeout_s is None else TimedEnv(sdk_env, timeout_s)
        response = await sdk_task.verify_detailed_async(env, **kwargs)
    except Exception as error:
        message = error_message(error) or type(error).__name__
        raise EnvError(f"could not run the verifier of task {task.key}: {message}") from None
    failure = response.error or {}
    outcome = {
        "success": response.success,
        "result": response.result,
        "stdout": response.stdout,
        "error_type": failure.get("type"),
        "error_message": failure.get("message"),
        "traceback": failure.get("traceback"),
    }
    return verdict_from_outcome(
        outcome, task_key=task.key, elapsed_ms=response.execution_time_ms, mode="remote"
    )
