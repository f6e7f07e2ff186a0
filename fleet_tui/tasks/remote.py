"""Remote verifier mode: the SDK's `verify_detailed`, run by the Fleet host against the instance."""

from __future__ import annotations

from typing import Any

from fleet_tui.envs.base import EnvError, Task, Verdict
from fleet_tui.tasks.local_verify import verdict_from_outcome


async def verify_remote(fleet_env: Any, task: Task, final_answer: str | None = None) -> Verdict:
    """Run `task`'s verifier on the Fleet host against `fleet_env`'s instance.

    A verifier that does not compile, raises or scores low is a Verdict; a host that cannot run
    it at all is an EnvError.
    """
    sdk_env = getattr(fleet_env, "sdk_env", None)
    if sdk_env is None:
        raise EnvError(
            "remote verification needs a Fleet env (ENV_KEY, --instance or --local); "
            "use the local verifier mode for other envs"
        )
    if not task.verifier_code:
        raise EnvError(f"task {task.key} has no verifier code")
    try:
        compile(task.verifier_code, f"<verifier of {task.key}>", "exec")
    except SyntaxError as error:
        return Verdict(
            task_key=task.key,
            success=False,
            error_type="SyntaxError",
            error_message=f"{error.msg} (line {error.lineno})",
            mode="remote",
        )
    import fleet

    sdk_task = fleet.Task(
        key=task.key,
        prompt=task.prompt,
        env_id=task.env_key or sdk_env.env_key,
        version=task.version,
        verifier_func=task.verifier_code,
    )
    kwargs = {"final_answer": final_answer} if final_answer is not None else {}
    try:
        response = await sdk_task.verify_detailed_async(sdk_env, **kwargs)
    except Exception as error:
        message = getattr(error, "message", None) or str(error) or type(error).__name__
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
