"""The Trajectory pane: an agent's transcript (a form `replay --trajectory` reads) opened in the
app and stepped through on the env. Each step is a call through the session (in the history, in
the result view), judged against the transcript's result as `replay` judges it: the same,
different, no record, a tool the env lacks or unreadable arguments (not made); starting over
resets the env; the verifier's verdict shows."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path

from textual.widgets import Input, Static

from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.local import bundled_task_files
from fleet_tui.session.trajectory_run import TrajectoryRun
from fleet_tui.tasks.files import load_tasks
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.trajectory_screen import TrajectoryScreen
from fleet_tui.ui.trajectory import NO_VERIFIER, TrajectoryReplay
from fleet_tui.ui.widgets.task_features import TaskFeatures
from fleet_tui.ui.widgets.task_panel import TaskPanel
from fleet_tui.ui.widgets.trajectory_pane import TrajectoryPane, TrajectorySteps
from tests.app_driver import SIZE, local_target, screen_text, wait_connected, wait_for, wait_idle
from tests.app_flows import TRACKER_SAFARI
from tests.cli_run import assert_one_line_error, fleet_tui
from tests.test_app_footer import assert_fits
from tests.test_trajectory_replay import ANTHROPIC, OPENAI

UNKNOWN_CALL = {
    "role": "assistant",
    "content": [{"type": "tool_use", "id": "toolu_9", "name": "mcp__x__nope", "input": {}}],
}


@asynccontextmanager
async def trajectory_app(target: Target, path: Path | None, features: TaskFeatures | None = None):
    """The app on `target` with the trajectory at `path` open (and `features`' Tasks pane)."""
    replay = TrajectoryReplay(run=TrajectoryRun.load(path) if path else None)
    app = FleetTuiApp(target, recorder=features.recorder if features else None)
    if features is not None:
        app.extensions.append(features.install)
    app.extensions.append(replay.install)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await wait_for(pilot, lambda: app.tool_panel.tool is not None)  # done connecting
        if path is not None:
            await wait_for(pilot, lambda: app.query_one("#sidebar").active == "pane-trajectory")
        yield pilot, replay


async def press(pilot, key: str) -> None:
    """Press `key` in the steps list and wait for what it started."""
    pilot.app.query_one(TrajectorySteps).focus()
    await pilot.press(key)
    await pilot.pause()
    await wait_idle(pilot)


def states(replay: TrajectoryReplay) -> list[str]:
    assert replay.run is not None
    return [step.state for step in replay.run.steps]


def detail(app) -> str:
    return str(app.query_one("#trajectory-detail", Static).content)


async def test_an_openai_transcript_steps_through_the_history(mcp_alpha, tmp_path: Path):
    transcript = tmp_path / "openai.json"
    transcript.write_text(json.dumps({"messages": OPENAI}))
    async with trajectory_app(McpTarget(urls=[mcp_alpha.url]), transcript) as (pilot, replay):
        app = pilot.app
        assert app.query_one("#sidebar").active == "pane-trajectory"
        assert states(replay) == ["pending", "pending"]  # mcp__fleet-tui__add is mapped to add
        await press(pilot, "n")
        assert states(replay) == ["same", "pending"]
        [echo] = [r for r in app.controller.records if r.is_call]
        assert (echo.tool, echo.arguments, echo.status) == ("echo", {"text": "hi"}, "ok")
        assert "#1 echo" in app.result_view.plan.title
        await press(pilot, "a")
        assert states(replay) == ["same", "same"]
        calls = [(r.tool, r.arguments) for r in app.controller.records if r.is_call]
        assert calls == [("echo", {"text": "hi"}), ("add", {"a": 2, "b": 3})]
        assert "2 same" in screen_text(app)
        await press(pilot, "v")  # no task here: said in plain words
        assert any(NO_VERIFIER in n.message for n in app._notifications)
        await assert_fits(pilot, app.query_one(TrajectorySteps), "trajectory")


async def test_an_anthropic_transcript_marks_divergence_and_unknown_tools(
    mcp_alpha, tmp_path: Path
):
    transcript = tmp_path / "anthropic.jsonl"
    messages = [*ANTHROPIC[:3], UNKNOWN_CALL, *ANTHROPIC[3:]]
    transcript.write_text("\n".join(json.dumps(message) for message in messages))
    async with trajectory_app(McpTarget(urls=[mcp_alpha.url]), transcript) as (pilot, replay):
        app = pilot.app
        assert states(replay) == ["pending", "unknown tool", "pending"]
        await press(pilot, "a")
        assert states(replay) == ["same", "unknown tool", "differs"]
        tools = [r.tool for r in app.controller.records if r.is_call]
        assert tools == ["echo", "echo"]  # the unknown tool was skipped, not called
        text = screen_text(app)
        assert "differs" in text and "unknown tool" in text
        # the divergent step's detail: replay's line, the recorded result and the replayed one
        shown = detail(app)
        assert "echo: DIVERGED" in shown and "text block 1 differs" in shown
        assert "what the env never said" in shown and "replayed (history #2)" in shown
        # a step chosen shows its replayed result in the result view
        steps = app.query_one(TrajectorySteps)
        steps.highlighted = 0
        await press(pilot, "enter")
        await wait_for(pilot, lambda: "#1 echo" in app.result_view.plan.title)
        steps.highlighted = 1
        await pilot.pause()
        unknown = "DIVERGED (unknown tool: the env has no tool 'mcp__x__nope' (not made))"
        assert unknown in detail(app)  # as `replay --trajectory` says it
        await pilot.click(TrajectorySteps, offset=(2, 4))  # the mouse: the third step's row
        await wait_for(pilot, lambda: "#2 echo" in app.result_view.plan.title)
        assert steps.highlighted == 2 and "echo: DIVERGED" in detail(app)


async def test_run_to_the_end_verifies_and_start_over_resets(local_host):
    """An agent's transcript on the tracker (tests/data/trajectories): the search is the same,
    the browser tool is not the env's, the users differ (dave's role), the update is the same;
    the Safari task's verifier then passes."""
    tasks = load_tasks(bundled_task_files()["tracker"])
    features = TaskFeatures(tasks=tasks, recorder=None)
    target = local_target(local_host.base_url, "tracker")
    async with trajectory_app(target, TRACKER_SAFARI, features) as (pilot, replay):
        app = pilot.app
        panel = await wait_for(pilot, lambda: app.query(TaskPanel).first(None))
        panel.start_task(next(t for t in tasks if t.key == "tracker-assign-safari-crash"))
        await wait_for(pilot, lambda: any(r.tool == "<reset>" for r in app.controller.records))
        await wait_idle(pilot)
        await app.run_action("extension('show_trajectory')")
        await press(pilot, "a")  # the call, then the verifier
        await wait_for(pilot, lambda: panel.verdicts, timeout=60)
        await pilot.pause()
        assert states(replay) == ["same", "unknown tool", "differs", "same"]
        assert [r.tool for r in app.controller.records if r.is_call] == [
            "search_issues",
            "list_users",
            "update_issue",
        ]
        app.query_one(TrajectorySteps).highlighted = 2
        await pilot.pause()
        assert """$.users[3].role: '"developer"' -> '"qa"'""" in detail(app)
        verdict = str(app.query_one("#trajectory-verdict", Static).content)
        update = replay.run.steps[-1]  # numbered in the verdict as in the steps, not the history
        assert "PASS" in verdict
        assert f"after step #{update.call.seq} update_issue (history #{update.record})" in verdict
        [verify] = [r for r in app.controller.records if r.tool == "<verify>"]
        assert f"{verify.latency_s * 1000:.0f} ms" in verify.message  # one figure, heading and row
        resets = sum(r.tool == "<reset>" for r in app.controller.records)
        await press(pilot, "r")
        await wait_for(
            pilot, lambda: sum(r.tool == "<reset>" for r in app.controller.records) > resets
        )
        await wait_for(
            pilot, lambda: states(replay) == ["pending", "unknown tool"] + ["pending"] * 2
        )
        await press(pilot, "v")  # verified now, before any step: the env is fresh again
        await wait_for(pilot, lambda: len(panel.verdicts) == 2, timeout=60)
        await pilot.pause()
        assert "FAIL" in str(app.query_one("#trajectory-verdict", Static).content)


async def test_the_palette_opens_a_trajectory_and_bad_files_are_said_plainly(
    mcp_alpha, tmp_path: Path
):
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json\n[neither")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(OPENAI))
    async with trajectory_app(McpTarget(urls=[mcp_alpha.url]), None) as (pilot, replay):
        app = pilot.app
        await pilot.press("ctrl+p")
        await pilot.press(*"agent trajectory")
        await pilot.pause(0.5)
        await pilot.press("enter")
        screen = await wait_for(pilot, lambda: isinstance(app.screen, TrajectoryScreen))
        screen = app.screen
        path_input = screen.query_one("#trajectory-path", Input)
        error = screen.query_one("#trajectory-error", Static)
        for path, message in [
            (tmp_path / "missing.json", "cannot read the transcript"),
            (garbage, "neither JSON nor JSONL"),
        ]:
            path_input.value = str(path)
            await pilot.press("enter")
            await wait_for(pilot, lambda m=message: m in str(error.content))
            assert app.screen is screen and path_input.value == str(path)  # nothing lost
        path_input.value = str(good)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.query(TrajectoryPane))
        assert replay.run is not None and len(replay.run.steps) == 2
        assert states(replay) == ["pending", "pending"]


def test_the_app_refuses_a_trajectory_that_is_none(mcp_alpha, tmp_path: Path):
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "no tools here"}]))
    run = fleet_tui("--mcp", mcp_alpha.url, "--trajectory", str(chat))
    assert_one_line_error(run, 2, "no tool calls")


async def test_the_screenshot_pane_follows_a_computer_use_transcript(local_host, tmp_path: Path):
    """On the desktop todo env, a click and some typing from an agent's transcript: the
    screenshot pane shows the screen after each step."""
    actions = [
        ({"action": "left_click", "coordinate": [400, 128]}, "focused the new-todo field"),
        ({"action": "type", "text": "Replayed"}, "typed 'Replayed'"),
    ]
    messages = []
    for number, (action, answer) in enumerate(actions, 1):
        use = {"type": "tool_use", "id": f"t{number}", "name": "computer", "input": action}
        answered = {"type": "tool_result", "tool_use_id": f"t{number}", "content": answer}
        messages += [
            {"role": "assistant", "content": [use]},
            {"role": "user", "content": [answered]},
        ]
    transcript = tmp_path / "clicks.json"
    transcript.write_text(json.dumps(messages))
    target = local_target(local_host.base_url, "desktop-todo")
    async with trajectory_app(target, transcript) as (pilot, replay):
        app = pilot.app
        await wait_idle(pilot)
        pane = app.screenshot_pane
        shown = pane.image.data
        for step in range(2):
            await press(pilot, "n")
            await wait_for(pilot, lambda s=shown: pane.image.data != s and pane.image.picture)
            shown = pane.image.data
            assert replay.run.steps[step].state != "pending"
        screens = [r for r in app.controller.records if r.tool == "computer"]
        assert [r.arguments["action"] for r in screens][-2:] == ["left_click", "type"]
        assert all(r.result.images() for r in screens[-2:])  # the env answers with the screen
        assert pane.image.data == screens[-1].result.images()[-1].data


async def test_unanswered_and_unreadable_calls_read_as_replay_says(mcp_alpha, tmp_path: Path):
    """A call without an answer is "no record" and one whose arguments are broken JSON is not
    made, in the pane as in `replay --trajectory`."""
    broken = {"id": "c2", "type": "function", "function": {"name": "add", "arguments": '{"a":'}}
    unanswered = {"id": "c3", "type": "function"} | {
        "function": {"name": "echo", "arguments": '{"text": "late"}'}
    }
    transcript = tmp_path / "chat.json"
    transcript.write_text(
        json.dumps(
            [
                *OPENAI[:4],
                {"role": "assistant", "tool_calls": [broken]},
                {"role": "assistant", "tool_calls": [unanswered]},
            ]
        )
    )
    async with trajectory_app(McpTarget(urls=[mcp_alpha.url]), transcript) as (pilot, replay):
        app = pilot.app
        assert states(replay) == ["pending", "error", "pending"]
        await press(pilot, "a")
        assert states(replay) == ["same", "error", "no record"]
        calls = [(r.tool, r.arguments) for r in app.controller.records if r.is_call]
        assert calls == [("echo", {"text": "hi"}), ("echo", {"text": "late"})]
        steps = app.query_one(TrajectorySteps)
        steps.highlighted = 1
        await pilot.pause()
        assert "add: DIVERGED (not made: its arguments are not JSON" in detail(app)
        steps.highlighted = 2
        await pilot.pause()
        assert "echo: no record (nothing recorded to compare with" in detail(app)
    cli = fleet_tui("replay", "--trajectory", str(transcript), "--mcp", mcp_alpha.url)
    assert "add: DIVERGED (not made: its arguments are not JSON" in cli.stdout
    assert "echo: no record (nothing recorded to compare with" in cli.stdout
