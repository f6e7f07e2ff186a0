"""What a session tells of its env, as `SessionController` methods (it inherits `EnvSession`):
its identity, endpoints and warnings, the reset an episode opened with, what it says of itself,
its state, its tasks, and a task's verdict on it. Front ends ask the session, never the env, so
they need not know which envs can do what (`envs/capabilities.py`)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.base import EndpointStatus, Env, EnvError, EnvInfo, ResetResult, Task, Verdict
from fleet_tui.envs.capabilities import (
    DescribesItself,
    Episodic,
    HasTaskRoutes,
    Heartbeating,
)
from fleet_tui.session_records import ConnectionState

if TYPE_CHECKING:
    from fleet_tui.tasks.verify import VerifierMode


class EnvSession:
    """What a session offers of its env itself."""

    env: Env | None
    state: ConnectionState

    def opened_env(self) -> Env:
        """The env the session opened; EnvError when it has none."""
        if self.env is None:
            raise EnvError("no env is open")
        return self.env

    @property
    def info(self) -> EnvInfo:
        """Which env the session opened (its kind, instance, ...)."""
        return self.opened_env().info

    def endpoints(self) -> list[EndpointStatus]:
        """The env's endpoints as they are now (none before it is opened)."""
        return self.env.endpoints() if self.env is not None else []

    def warnings(self) -> list[str]:
        """Every warning the env has now (see `new_warnings` for the ones not returned yet)."""
        return self.env.warnings() if self.env is not None else []

    @property
    def heartbeat_state(self) -> str | None:
        """How the instance's latest heartbeat went (see `Heartbeating`); None when the env
        sends none."""
        env = self.env
        return env.heartbeat_state if isinstance(env, Heartbeating) else None

    @property
    def opening_reset(self) -> ResetResult | None:
        """The reset an episodic env opened its session with, while no step followed it."""
        env = self.env
        if isinstance(env, Episodic) and not env.stepped:
            return env.last_reset
        return None

    async def description(self) -> dict[str, Any]:
        """`metadata` and `schema` of an env that describes itself; None for what it does not
        serve (or for an env that does not describe itself)."""
        env = self.env
        report: dict[str, Any] = {"metadata": None, "schema": None}
        if isinstance(env, DescribesItself):
            for name, fetch in (("metadata", env.metadata), ("schema", env.schema)):
                with contextlib.suppress(EnvError):  # a server that does not serve it
                    report[name] = await fetch()
        return report

    async def episode_state(self) -> dict[str, Any]:
        """The state of the session's env (OpenEnv `state`, over the session itself); EnvError
        when the session has no episodes or is not connected."""
        env = self.env
        if self.state != ConnectionState.CONNECTED or not isinstance(env, Episodic):
            raise EnvError("no episodic session is open")
        return await env.state()

    async def task_environments(self) -> list[str]:
        """The environments the server's task routes serve; none when it has no task routes."""
        env = self.env
        return await env.task_environments() if isinstance(env, HasTaskRoutes) else []

    async def server_tasks(self, per_split: int) -> list[Task]:
        """The first `per_split` tasks of each split the server serves on its task routes
        (imported OpenEnv servers have them); EnvError when it has none."""
        env = self.env
        if not isinstance(env, HasTaskRoutes):
            raise EnvError("no task routes")
        tasks: list[Task] = []
        for split in await env.splits():
            tasks += await env.task_range(split["name"], 0, per_split)
        return tasks

    async def verify(
        self,
        task: Task,
        *,
        mode: VerifierMode = "remote",
        final_answer: str | None = None,
        timeout_s: float,
    ) -> Verdict:
        """Run `task`'s verifier against the env (see `tasks/verify.py`, loaded here: the
        sessions that verify nothing, one-shot calls above all, do not load it)."""
        from fleet_tui.tasks.verify import run_verifier

        return await run_verifier(
            self.opened_env(), task, mode=mode, final_answer=final_answer, timeout_s=timeout_s
        )
