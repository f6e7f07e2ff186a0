"""Run a headless command on an env: connect, work, and always close — after an error, on
Ctrl+C (asyncio.run cancels the main task) and on SIGTERM or SIGHUP (handled the same way here).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from fleet_tui.commands.output import err, warn
from fleet_tui.envs.base import Env, EnvError, Progress
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.envs.server_requests import ServerRequests
from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.stop_signals import stop_task_on_signals
from fleet_tui.text import describe_error, flat

Work = Callable[[Env], Awaitable[int]]
WarmRunner = Callable[
    [Target, Work, "ClientHandlers | None", "ServerRequests | None", "float | None"], int
]

warm_runner: WarmRunner | None = None
"""Set in a warm-session daemon (`commands/warm_daemon.py`): runs the work on the env it
holds open instead of connecting afresh."""


def run_on_env(
    target: Target,
    work: Work,
    handlers: ClientHandlers | None = None,
    requests: ServerRequests | None = None,
    keep_warm: float | None = None,
    env_options: dict[str, Any] | None = None,
) -> int:
    """Connect to `target`, run `work(env)`, close; returns the exit code. `handlers` hear what
    the env's MCP servers send on their own (see `server_output`); `requests` answers what they
    ask (default: no roots, elicitation and sampling declined). With
    `keep_warm` (seconds), a warm-session daemon is left holding the target's session open
    for the next command (`fleet_tui/warm`). `env_options` go to the adapter (`make_env`): an
    OpenEnv session's first `seed`, say."""
    if warm_runner is not None:
        return warm_runner(target, work, handlers, requests, keep_warm)
    code = asyncio.run(_run(target, work, handlers, requests, env_options or {}))
    if keep_warm is not None:
        from fleet_tui.warm.start import kept_warm_note, start_daemon

        if problem := start_daemon(target, keep_warm):
            warn(problem)
        else:
            err(kept_warm_note(keep_warm))
    return code


async def _run(
    target: Target,
    work: Work,
    handlers: ClientHandlers | None,
    requests: ServerRequests | None,
    options: dict[str, Any],
) -> int:
    from fleet_tui.commands.client_options import HeadlessAnswers
    from fleet_tui.envs.capabilities import HearsServer
    from fleet_tui.envs.factory import make_env

    with stop_task_on_signals() as stop:
        # A stdio server's stderr goes to ours (the app keeps it for its endpoint view).
        env = (
            make_env(target, child_stderr=sys.stderr, **options)
            if isinstance(target, McpTarget)
            else make_env(target, **options)
        )
        if isinstance(env, HearsServer):
            answers = requests or HeadlessAnswers([])
            env.listen((handlers or ClientHandlers()).answer_with(answers))
        try:
            return await connected_work(env, work, env.connect)
        except asyncio.CancelledError:
            if stop.exit_code is None:
                raise
            err("fleet-tui: terminated")
            return stop.exit_code
        finally:
            warnings_before = set(env.warnings())
            await env.close()
            for warning in env.warnings():
                if warning not in warnings_before:
                    warn(warning)
            _say_if_kept(env)


async def connected_work(
    env: Env, work: Work, connect: Callable[[Progress], Awaitable[None]]
) -> int:
    """`connect` (its progress on stderr), the env's warnings, then `work(env)`; an error
    becomes one clean EnvError line (its text may come from the env)."""
    try:
        await connect(err)
        for warning in env.warnings():
            warn(warning)
        return await work(env)
    except BrokenPipeError:  # the reader of stdout went away (`| head`): cli.main ends quietly
        raise
    except EnvError as error:
        raise EnvError(flat(error.message), exit_code=error.exit_code) from None
    except Exception as error:
        raise EnvError(flat(f"unexpected error: {describe_error(error)}")) from None


def _say_if_kept(env: Env) -> None:
    info = env.info
    if not (info.keep and info.created_here and info.instance_id):
        return
    if info.kind == "local":
        warn(
            f"instance {info.instance_id} lived on the embedded host, which stopped with this "
            "command; to keep instances, run `fleet-tui local serve` and pass --base-url "
            "(with FLEET_API_KEY set to the key it prints)"
        )
        return
    where = f" --base-url {info.base_url}" if info.base_url else ""
    err(
        f"kept instance {info.instance_id}; attach with: fleet-tui --instance "
        f"{info.instance_id}{where}"
    )
