"""Provision the env a task names, and share one embedded host among many envs.

`task_target` turns a task (env key, version, data key, env variables) plus the user's target
options into a Target. `connected` opens an env and always closes what it created.
`shared_host` starts the embedded Fleet host once for a local target, so N tasks run on
N instances of one host rather than on N hosts, and `shared_fleet_client` gives them one Fleet
client (one HTTP client and TLS context, the SDK's retry policy kept) rather than one per env.
"""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from fleet_tui.envs.base import Env, EnvError, Progress, Task
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import FleetTarget, InstanceTarget, LocalTarget, OpenEnvTarget, Target

if TYPE_CHECKING:
    import fleet

    from fleet_tui.tasks.child_launch import ChildProcess


def task_target(task: Task, base: Target) -> Target:
    """The target that provisions the env `task` names, on the host `base` points at. An
    OpenEnv server's tasks are reset into, not provisioned: `base` is the target."""
    if isinstance(base, OpenEnvTarget):
        return base
    if not isinstance(base, InstanceTarget):
        raise EnvError(f"task {task.key} runs on a Fleet env, which MCP endpoints cannot provision")
    if not task.env_key:
        raise EnvError(f"task {task.key} names no env (env_key or env_id)")
    env_key = task.env_key
    if task.version and ":" not in env_key:
        env_key = f"{env_key}:{task.version}"
    return base.model_copy(
        update={
            "env_key": env_key,
            "instance": None,
            "data_key": task.data_key or base.data_key,
            "env_variables": {
                **base.env_variables,
                **{k: str(v) for k, v in task.env_variables.items()},
            },
        }
    )


@asynccontextmanager
async def connected(
    target: Target, progress: Progress | None = None, *, client: fleet.AsyncFleet | None = None
) -> AsyncIterator[Env]:
    """A connected env for `target`, closed (instance included) however the block ends.
    `client`: a Fleet client from `shared_fleet_client`, for a Fleet target."""
    env = make_env(target, client=client) if client is not None else make_env(target)
    try:
        await env.connect(progress)
        yield env
    finally:
        await env.close()


@asynccontextmanager
async def shared_host(target: Target) -> AsyncIterator[Target]:
    """For a `LocalTarget`, one embedded host for the whole block: yields a target that points
    at it."""
    if not isinstance(target, LocalTarget):
        yield target
        return
    from fleet_tui.local.runner import start_local_host

    host = start_local_host(start_pool=pool_from_zygote)
    try:
        yield target.on_host(host.base_url, host.token)
    finally:
        host.stop()


async def pool_from_zygote(log_path: Path) -> ChildProcess:
    """The host's verifier pool, forked by the verifier zygote (`child_launch`), which has
    imported fleet-python for both: the pool then imports nothing at start."""
    from fleet_tui.tasks.child_launch import start_child

    return await start_child(
        "fleet_tui.local.verifier_worker", str(log_path), stdin=subprocess.PIPE
    )


@asynccontextmanager
async def shared_fleet_client(target: Target) -> AsyncIterator[fleet.AsyncFleet | None]:
    """For a `FleetTarget`, one Fleet client for every env opened on its host in the block
    (closed at its end); None for other targets. Building the SDK's client loads the CA bundle
    into a TLS context, a fair part of a task check's CPU when each env builds its own."""
    if not isinstance(target, FleetTarget):
        yield None
        return
    from fleet_tui.envs.fleet import fleet_client

    client = fleet_client(target.base_url, target.api_key)
    try:
        yield client
    finally:
        await client.client.httpx_client.aclose()
