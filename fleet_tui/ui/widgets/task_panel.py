"""The Tasks pane: browse tasks, start one (provision or reset its env, apply its modality),
run its verifier on demand and keep every verdict in the history with the step it followed.

`TaskPanel` works on the session (a `SessionController`) and a few callables its owner gives
it: show a list of tools, connect, reset. Its owner calls `env_ready`, `env_reset` and
`call_finished` as those happen. Verdicts and task switches go through the session (its
recorder, if any, writes them).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from fleet_tui.controller import CallRecord, SessionController
from fleet_tui.envs.base import EnvError, Task, Tool, Verdict
from fleet_tui.envs.targets import InstanceTarget, OpenEnvTarget
from fleet_tui.tasks.local_verify import DEFAULT_TIMEOUT_S
from fleet_tui.tasks.start import takes_final_answer, tools_for_modality
from fleet_tui.tasks.verify import AdHocVerifier, VerifierMode, run_verifier
from fleet_tui.text import name_line, one_line, visible
from fleet_tui.ui.widgets.task_browser import TaskBrowser
from fleet_tui.ui.widgets.task_detail import TaskDetail
from fleet_tui.ui.widgets.verdict import VerdictView, verdict_headline, verdict_text

REWARD_LINES = 6
OPENENV_TASK_LIMIT = 200
"""Tasks listed per split of an OpenEnv server (the rest stay on the server)."""


class TaskPanel(Vertical):
    """Task browser, detail, start/verify actions, final answer and the latest verdict."""

    DEFAULT_CSS = """
    TaskPanel { height: 1fr; }
    TaskPanel TaskBrowser { height: 2fr; }
    TaskPanel TaskDetail { height: 3fr; border-top: solid $panel; }
    TaskPanel #task-actions { height: auto; }
    TaskPanel #task-actions Button { min-width: 12; margin-right: 1; }
    TaskPanel #task-status { height: auto; padding: 0 1; }
    TaskPanel #final-answer { display: none; }
    TaskPanel #final-answer.wanted { display: block; }
    """

    def __init__(
        self,
        tasks: list[Task],
        session: SessionController,
        *,
        show_tools: Callable[[list[Tool]], None],
        connect: Callable[[], None],
        reset: Callable[[], None],
        mode: VerifierMode = "remote",
        adhoc: AdHocVerifier | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.tasks = tasks
        self.session = session
        self.show_tools = show_tools
        """Shows the tools a task's modality offers (in the tool list)."""
        self.connect = connect
        """Connects, in a worker, to the session's target."""
        self.reset = reset
        """Resets the session's env, in a worker."""
        self.mode: VerifierMode = mode
        self.adhoc = adhoc
        self.timeout_s = timeout_s
        self.active: Task | None = None
        """The started task: the one the verifier runs for."""
        self.verdicts: list[tuple[Verdict, str | None]] = []
        self.modality_note: str | None = None
        self.rewards: list[str] = []
        """One line per rewarded step: `#3 finish reward 1 · total 1` (the session's episode
        keeps the total)."""

    def compose(self) -> ComposeResult:
        yield TaskBrowser(self.tasks, id="task-browser")
        yield TaskDetail(id="task-detail")
        with Horizontal(id="task-actions"):
            yield Button("Start task", id="start-task", variant="primary")
            yield Button("Verify", id="verify-task")
        yield Input(placeholder="final answer for the verifier", id="final-answer")
        yield Static(self._status_text(), id="task-status")
        yield VerdictView(id="verdict")

    def on_mount(self) -> None:
        if self.adhoc is not None and not self.tasks:
            self._show_final_answer(self.adhoc.apply(None))

    # -- showing ---------------------------------------------------------------------------------

    def _status_text(self) -> Text:
        text = Text()
        text.append("task: ", style="dim")
        text.append(one_line(self.active.key, 60) if self.active else "none started")
        text.append(f"  · verifier: {self.mode}", style="dim")
        if self.adhoc is not None:
            text.append(f" · file {one_line(self.adhoc.path.name, 40)}", style="dim")
        for line in self.rewards[-REWARD_LINES:]:
            text.append("\n" + line)
        if self.modality_note:
            text.append("\n" + self.modality_note, style="yellow")
        return text

    def _refresh_status(self) -> None:
        self.query_one("#task-status", Static).update(self._status_text())

    def _show_final_answer(self, task: Task | None) -> None:
        box = self.query_one("#final-answer", Input)
        code = self.adhoc.code() if self.adhoc and self.adhoc.path.exists() else None
        box.set_class(takes_final_answer(code or (task.verifier_code if task else None)), "wanted")

    @on(TaskBrowser.Highlighted)
    async def _highlighted(self, event: TaskBrowser.Highlighted) -> None:
        await self.query_one(TaskDetail).show(event.task)
        if self.active is None:
            self._show_final_answer(event.task)

    @on(TaskBrowser.Chosen)
    def _chosen(self, event: TaskBrowser.Chosen) -> None:
        self.start_task(event.task)

    @on(Button.Pressed, "#start-task")
    def _start_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        task = self.query_one(TaskDetail).shown_task or self.query_one(TaskBrowser).current()
        if task is None:
            self.notify("Pick a task first.", severity="warning")
            return
        self.start_task(task)

    @on(Button.Pressed, "#verify-task")
    def _verify_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.verify()

    @on(Input.Submitted, "#final-answer")
    def _answer_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.verify()

    # -- starting a task ---------------------------------------------------------------------------

    def start_task(self, task: Task) -> None:
        """Provision the env the task names (or reset the one we have) and apply its modality."""
        self.active = task
        self.modality_note = None
        self._show_final_answer(task)
        self._refresh_status()
        try:
            provision = self.session.start_task(task)
        except EnvError as error:
            self.notify(error.message, severity="error", markup=False)
            return
        target = self.session.target
        if provision and isinstance(target, InstanceTarget):  # only instances are provisioned
            self.notify(f"Starting {task.key}: provisioning {target.env_key}…", markup=False)
            self.connect()  # env_ready applies the modality
        else:
            self.notify(f"Starting {task.key}: resetting the env…", markup=False)
            self.reset()

    def apply_modality(self) -> None:
        tools = self.session.tools
        if self.active is None or not tools:
            return
        shown, self.modality_note = tools_for_modality(tools, self.active.task_modality)
        self.show_tools(shown)
        if self.modality_note:
            self.notify(self.modality_note, severity="warning", markup=False, timeout=10)
        self._refresh_status()

    def env_ready(self, _tools: Any) -> None:
        """The session connected: apply the task's modality, list an OpenEnv server's tasks."""
        self.apply_modality()
        if isinstance(self.session.target, OpenEnvTarget) and not self.tasks:
            self._load_openenv_tasks()

    @work(group="openenv-tasks", exclusive=True, exit_on_error=False)
    async def _load_openenv_tasks(self) -> None:
        """The tasks an OpenEnv server serves on its task routes (imported envs have them)."""
        try:
            tasks = await self.session.server_tasks(OPENENV_TASK_LIMIT)
        except EnvError as error:
            self.query_one(VerdictView).show_message(f"No tasks from the server: {error.message}")
            return
        if not tasks:
            self.query_one(VerdictView).show_message("The server has no task routes.")
            return
        self.tasks = tasks
        self.query_one(TaskBrowser).set_tasks(tasks)
        self._adopt_target_task()

    def _adopt_target_task(self) -> None:
        """The app began in one of these tasks (`--openenv-task SPLIT:INDEX`: every reset
        starts it): it is the started task, the one shown and verified, as if started here."""
        target = self.session.target
        if self.active is not None or not isinstance(target, OpenEnvTarget) or not target.task:
            return
        task = next((t for t in self.tasks if (t.split, t.index) == target.task), None)
        if task is None:
            return
        self.active = task
        self.session.choose_task(task)
        self._show_final_answer(task)
        self.apply_modality()
        self._refresh_status()

    def env_reset(self, _outcome: Any) -> None:
        """A new episode: the reward lines start again."""
        self.rewards.clear()
        self.apply_modality()

    def call_finished(self, entry: CallRecord) -> None:
        """Count the call's reward, if any."""
        reward = entry.result.reward if entry.result is not None else None
        if reward is not None:
            self.rewards.append(
                f"#{entry.number} {name_line(entry.tool, 24)} reward {reward:g}"
                f" · total {self.session.episode.total_reward:g}"
            )
        self._refresh_status()

    # -- verifying ---------------------------------------------------------------------------------

    def verify(self) -> None:
        """Run the active task's verifier (or the ad-hoc file's) against the env as it is now."""
        task = self.active or (
            self.query_one(TaskDetail).shown_task if self.adhoc is None else None
        )
        if task is None and self.adhoc is None:
            self.notify("Start a task first.", severity="warning")
            return
        if not self.session.connected:
            self.notify("Not connected.", severity="error")
            return
        if task is not None and self.active is None:
            # Verifying a task that was only picked, not started: it becomes the session's task.
            self.active = task
            self.session.choose_task(task)
            self._refresh_status()
        answer = self.query_one("#final-answer", Input).value or None
        self._verify(task, answer)

    @work(group="verify", exclusive=True, exit_on_error=False)
    async def _verify(self, task: Task | None, answer: str | None) -> None:
        view = self.query_one(VerdictView)
        try:
            task = self.adhoc.apply(task) if self.adhoc else task
            assert task is not None
            env = self.session.env
            if env is None:
                raise EnvError("the env is not connected: the verifier needs it")
            view.show_message(f"Running the verifier of {task.key} ({self.mode})…")
            started = time.monotonic()
            verdict = await run_verifier(
                env,
                task,
                mode=self.mode,
                final_answer=answer,
                timeout_s=self.timeout_s,
            )
        except EnvError as error:
            view.show_message(error.message, style="red")
            self.notify(one_line(error.message, 300), severity="error", markup=False)
            return
        after = self._last_step()
        self.verdicts.append((verdict, after))
        view.show(verdict, after=after)
        took_s = time.monotonic() - started
        if verdict.execution_time_ms is not None:  # the figure its headline gives: one figure
            took_s = verdict.execution_time_ms / 1000
        self._add_history(verdict, after, answer, took_s)

    def _last_step(self) -> str | None:
        call = self.session.last_call()
        return f"#{call.number} {visible(call.tool)}" if call else None

    def _add_history(
        self, verdict: Verdict, after: str | None, answer: str | None, elapsed_s: float
    ) -> None:
        self.session.record_verdict(
            verdict,
            after=after,
            final_answer=answer,
            headline=verdict_headline(verdict),
            text=verdict_text(verdict, after=after).plain,
            elapsed_s=elapsed_s,
        )
        self.notify(
            verdict_headline(verdict),
            title=verdict.task_key or "verdict",
            severity="information" if verdict.passed else "error",
            markup=False,
        )
