"""Run a task's verifier against an env as it is now: remotely (the SDK's verifier execution,
the default) or locally (a child process against snapshots of the env's SQLite resources).

`AdHocVerifier` is a verifier file an author edits while the app runs: it is read again on
every run.
"""

from __future__ import annotations

import ast
import asyncio
import json
import os
from pathlib import Path
from typing import Any, Literal

from fleet_tui.envs.base import Env, EnvError, Task, Verdict
from fleet_tui.envs.capabilities import FleetInstance, HasSqliteResources
from fleet_tui.tasks.child_launch import start_child
from fleet_tui.tasks.local_verify import (
    DEFAULT_TIMEOUT_S,
    STARTUP_TIMEOUT_S,
    run_verifier_snapshots,
    stop,
    wait_or_kill,
)
from fleet_tui.tasks.remote_child import LOADED
from fleet_tui.tasks.snapshot import DbSnapshot, QueryFn, Rows, take_snapshot
from fleet_tui.tasks.verifier_child import READY

VerifierMode = Literal["remote", "local"]
VERIFIER_MODES: tuple[VerifierMode, ...] = ("remote", "local")


class AdHocVerifier:
    """A verifier file read afresh for each run."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def code(self) -> str:
        try:
            return self.path.read_text(encoding="utf-8")
        except OSError as error:
            raise EnvError(f"cannot read verifier {self.path}: {error.strerror}") from None

    def apply(self, task: Task | None) -> Task:
        """`task` with this file's current code (or a stand-in task when there is none)."""
        base = task or Task(key=self.path.stem)
        return base.model_copy(update={"verifier_code": self.code()})


def query_fn(env: Env, resource: str) -> QueryFn:
    """A QueryFn over one SQLite resource of an env that has them."""
    if not isinstance(env, HasSqliteResources):
        raise EnvError("this env has no SQLite resources to read (Fleet envs have them)")

    async def run(sql: str) -> Rows:
        return rows_of(await env.query(resource, sql))

    return run


def rows_of(response: Any) -> Rows:
    """(columns, rows) from a manager-API QueryResponse, as an object or a dict."""
    get = response.get if isinstance(response, dict) else lambda k: getattr(response, k, None)
    if get("success") is False:
        raise EnvError(f"query failed: {get('error') or get('message') or 'unknown error'}")
    return list(get("columns") or []), [list(row) for row in get("rows") or []]


async def resource_names(env: Env) -> list[str]:
    """Names of the env's SQLite resources."""
    if not isinstance(env, HasSqliteResources):
        return []
    names: list[str] = []
    for resource in await env.resources():
        kind = resource.get("type") if isinstance(resource, dict) else getattr(resource, "type", "")
        name = resource.get("name") if isinstance(resource, dict) else resource.name
        if str(getattr(kind, "value", kind)) in ("sqlite", "db"):
            names.append(str(name))
    return names


async def snapshot_env(env: Env, names: list[str] | None = None) -> dict[str, DbSnapshot]:
    """Snapshots of the env's SQLite resources (all of them unless `names`)."""
    names = names if names is not None else await resource_names(env)
    return {name: await take_snapshot(name, query_fn(env, name)) for name in names}


async def verify_local(
    env: Env,
    task: Task,
    *,
    final_answer: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    seed: DbSnapshot | None = None,
) -> Verdict:
    """Snapshot `current` and `seed` of the env and run the verifier in a child process.

    `seed` stands in for an env that has no `seed` resource (a snapshot taken after reset).
    """
    if not task.verifier_code:
        raise EnvError(f"task {task.key} has no verifier code")
    names = await resource_names(env)
    if "current" not in names:
        raise EnvError(f"the env has no 'current' SQLite resource (it has: {names or 'none'})")
    wanted = ["current"] + (["seed"] if "seed" in names and seed is None else [])
    snapshots = await snapshot_env(env, wanted)
    if seed is not None:
        snapshots["seed"] = seed
    return await run_verifier_snapshots(
        task.verifier_code,
        snapshots,
        final_answer=final_answer,
        timeout_s=timeout_s,
        task_key=task.key,
    )


async def run_verifier(
    env: Env,
    task: Task,
    *,
    mode: VerifierMode = "remote",
    final_answer: str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> Verdict:
    """Run `task`'s verifier in the chosen mode."""
    if mode == "local":
        return await verify_local(env, task, final_answer=final_answer, timeout_s=timeout_s)
    return await verify_remote_isolated(env, task, final_answer=final_answer, timeout_s=timeout_s)


def failed(task: Task, kind: str, message: str) -> Verdict:
    """A remote verdict for a verifier that could not run."""
    return Verdict(
        task_key=task.key, success=False, error_type=kind, error_message=message, mode="remote"
    )


def code_problem(task: Task) -> Verdict | None:
    """A failed verdict for code that cannot load (a syntax error, no function), else None."""
    try:
        tree = ast.parse(task.verifier_code or "")
    except SyntaxError as error:
        return failed(task, "SyntaxError", f"{error.msg} (line {error.lineno})")
    if not any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in tree.body):
        return failed(task, "MissingFunction", "the verifier code defines no function")
    return None


REMOTE_GRACE_S = 120.0
"""Time the remote host gets beyond the verifier's own timeout (bundle upload, queueing)."""


async def verify_remote_isolated(
    env: Env, task: Task, *, final_answer: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S
) -> Verdict:
    """`remote.verify_remote`, run from a child process (see `remote_child`).

    The child gets STARTUP_TIMEOUT_S to import the SDK, `timeout_s` for the verifier's module
    code (which the SDK runs on this machine), then `timeout_s` + REMOTE_GRACE_S for the run;
    the host is asked to stop the verifier after `timeout_s`.
    """
    fleet = env.fleet if isinstance(env, FleetInstance) else None
    if fleet is None or not env.info.instance_id:
        raise EnvError(
            "remote verification needs a Fleet instance (on any host); "
            "use the local verifier mode for other envs"
        )
    if not task.verifier_code:
        raise EnvError(f"task {task.key} has no verifier code")
    problem = code_problem(task)
    if problem is not None:
        return problem
    request = {
        "base_url": fleet.client.base_url,
        "instance_id": env.info.instance_id,
        "task": task.model_dump(mode="json"),
        "final_answer": final_answer,
        "timeout_s": timeout_s,
    }
    child_env = {**os.environ}
    if fleet.client.api_key:
        child_env["FLEET_API_KEY"] = fleet.client.api_key
    process = await start_child(
        "fleet_tui.tasks.remote_child", stdin=asyncio.subprocess.PIPE, env=child_env
    )
    steps = {  # the line that ends each step, its time limit, what it means to miss it
        READY: (STARTUP_TIMEOUT_S, "the verifier process did not start in time"),
        LOADED: (timeout_s, f"the verifier's module code did not finish within {timeout_s:g} s"),
        None: (timeout_s + REMOTE_GRACE_S, "the remote verification did not answer in time"),
    }
    stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
    assert stdin and stdout and stderr  # start_child pipes all three
    errors = asyncio.ensure_future(stderr.read())
    out = b""
    late = ""
    try:
        stdin.write(json.dumps(request).encode())
        stdin.close()
        for marker, (limit, missed) in steps.items():
            late = missed
            out += await wait_or_kill(process, read_past(stdout, marker), limit)
        await process.wait()
    except TimeoutError:
        return failed(task, "Timeout", late)
    finally:
        await stop(process)
        err = await errors
    try:
        answer = json.loads(out.decode().strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = " ".join(err.decode(errors="replace").strip().splitlines()[-1:])
        raise EnvError(f"remote verification failed: {tail or 'no answer'}") from None
    if "error" in answer:
        raise EnvError(answer["error"], exit_code=1)
    return Verdict.model_validate(answer["verdict"])


async def read_past(stream: asyncio.StreamReader, marker: str | None) -> bytes:
    """The stream up to and including the line `marker` (to its end when None or when the line
    never comes)."""
    if marker is None:
        return await stream.read()  # the answer: one line, maybe a long one
    seen = b""
    while line := await stream.readline():
        seen += line
        if line.strip() == marker.encode():
            break
    return seen
