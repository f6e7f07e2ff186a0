"""End to end: an ORS/OpenReward env (tests/envs/ors_shapes, real `openreward` SDK) wrapped by
`openenv import` (openenv 0.10.0 in its own virtualenv), served, and driven by fleet-tui."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from textual.widgets import Static

from fleet_tui.cli import main
from fleet_tui.envs.base import EnvError
from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.targets import OpenEnvTarget
from tests.app_driver import call, openenv_tasks_app, wait_for, wait_idle
from tests.fixtures.openenv_servers import imported_server, serve_with_launcher

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

GREEN = (40, 180, 60)


@pytest.fixture(scope="module")
def shapes_server(openenv_venv, tmp_path_factory):
    yield from imported_server(openenv_venv, "ors_shapes", "shapes", tmp_path_factory.mktemp("gen"))


@pytest.fixture
async def shapes(shapes_server):
    env = OpenEnvEnv(OpenEnvTarget(url=shapes_server.base_url), seed=9, split="test", index=1)
    lines: list[str] = []
    await env.connect(lines.append)
    env.progress_lines = lines
    yield env
    await env.close()


def test_openenv_import_generated_a_wrapper_around_the_source(shapes_server):
    package = Path(shapes_server.log_path).parent / "shapes"
    assert (package / "vendor" / "ors_shapes" / "shapes_env.py").exists()
    assert "openreward==0.1.167" in (package / "pyproject.toml").read_text()


def test_tasks_lists_environments_splits_and_counts(shapes_server, capsys):
    assert main(["tasks", "--openenv", shapes_server.base_url, "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing == {
        "environments": [
            {
                "name": "shapes",
                "splits": [
                    {"name": "train", "type": "train", "num_tasks": 3},
                    {"name": "test", "type": "test", "num_tasks": 2},
                ],
            }
        ]
    }


def test_tasks_pages_through_a_split(shapes_server, capsys):
    url = shapes_server.base_url
    assert main(["tasks", "--openenv", url, "--split", "train", "--start", "1", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)
    assert (page["num_tasks"], page["start"], page["stop"]) == (3, 1, 3)
    assert [task["key"] for task in page["tasks"]] == ["train-1", "train-2"]
    assert [task["index"] for task in page["tasks"]] == [1, 2]
    assert main(["tasks", "--openenv", url, "--split", "train", "--stop", "1"]) == 0
    text = capsys.readouterr().out
    assert "train-0" in text and "train-1" not in text and "more: --start 1" in text


def test_tasks_shows_one_task_and_names_bad_splits_and_indexes(shapes_server, capsys):
    url = shapes_server.base_url
    assert main(["tasks", "--openenv", url, "--split", "test", "--index", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["task"] == {
        "id": "test-1",
        "shape": "square",
        "colour": "green",
    }
    assert main(["tasks", "--openenv", url, "--split", "nope"]) == 2
    assert "no split 'nope' in shapes (splits: train, test)" in capsys.readouterr().err
    assert main(["tasks", "--openenv", url, "--split", "test", "--index", "5"]) == 2
    assert "no task 5 in split 'test'" in capsys.readouterr().err


async def test_reset_into_task_1_of_a_split(shapes):
    assert any("task 1 of split 'test'" in line for line in shapes.progress_lines)
    state = await shapes.state()
    assert (state["split"], state["index"]) == ("test", 1)
    assert state["task_spec"]["id"] == "test-1"
    reset = await shapes.reset(seed=2, split="train", index=1)
    assert reset.result.text() == "What colour is the circle?"
    assert (await shapes.state())["task_spec"]["id"] == "train-1"


async def test_tools_come_from_the_ors_env(shapes):
    tools = {tool.name: tool for tool in await shapes.list_tools()}
    assert set(tools) == {"describe", "answer"}
    assert tools["answer"].input_schema["required"] == ["colour"]
    assert shapes.info.env_key == "shapes"


async def test_describe_returns_text_and_an_image(shapes):
    result = await shapes.call_tool("describe", {"size": 16})
    assert not result.is_error
    assert result.text() == "A square of 16x16 pixels."
    (image,) = result.images()
    picture = Image.open(io.BytesIO(image.data)).convert("RGB")
    assert picture.size == (16, 16)
    assert picture.getpixel((8, 8)) == GREEN
    assert result.structured == {"task": "test-1"}
    assert (result.reward, result.done) == (None, False)


async def test_answer_ends_the_episode_with_a_reward(shapes):
    wrong = await shapes.call_tool("describe", {"size": "big"})
    assert wrong.is_error and wrong.error_kind == "execution_error"
    assert "validation" in wrong.text()
    result = await shapes.call_tool("answer", {"colour": "green"})
    assert (result.text(), result.reward, result.done) == ("correct", 1.0, True)
    with pytest.raises(EnvError, match="the episode ended"):
        await shapes.call_tool("answer", {"colour": "green"})
    refused = await shapes.call_tool("answer", {"colour": "green"}, after_done=True)
    assert refused.is_error and "episode has finished" in refused.text()
    await shapes.reset(seed=3, split="test", index=0)
    assert (await shapes.call_tool("answer", {"colour": "blue"})).reward == 0.0


def test_call_command_resets_once_and_prints_image_reward_and_done(shapes_server, capsys, tmp_path):
    url = shapes_server.base_url
    code = main(
        ["call", "--openenv", url, "describe", "-a", "size=8", "--save-images", str(tmp_path)]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert captured.err.count("Reset: new episode") == 1 and "(seed " in captured.err
    assert "A square of 8x8 pixels." in captured.out
    assert "reward: None  done: false" in captured.out
    (png,) = tmp_path.glob("describe-*.png")
    assert Image.open(png).size == (8, 8)
    assert main(["call", "--openenv", url, "answer", "-a", "colour=red"]) == 0
    out = capsys.readouterr().out
    assert "reward: 1.0  done: true (the episode ended; reset to start a new one)" in out


def test_tools_and_state_commands(shapes_server, capsys):
    url = shapes_server.base_url
    assert main(["tools", "--openenv", url]) == 0
    text = capsys.readouterr().out
    assert "describe" in text and "answer" in text and "2 tools" in text
    assert main(["state", "--openenv", url, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["task_environments"] == ["shapes"]
    assert report["metadata"]["name"] == "ShapesEnvironment"
    assert report["state"]["step_count"] == 0
    assert report["schema"]["action"]["title"] == "CallToolAction"


def test_openenv_task_option_picks_the_task_of_every_reset(shapes_server, capsys):
    url = shapes_server.base_url
    task = ["--openenv", url, "--openenv-task", "test:1"]
    assert main(["call", *task, "answer", "-a", "colour=green"]) == 0
    captured = capsys.readouterr()
    assert "task 1 of split 'test'" in captured.err
    assert "reward: 1.0  done: true" in captured.out
    assert main(["reset", *task, "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "(seed 4" in out and "task 1 of split 'test')" in out
    assert "What colour is the square?" in out
    assert main(["call", "--openenv", url, "--openenv-task", "test:9", "describe"]) == 1
    assert "reset into task 9 of split 'test' failed" in capsys.readouterr().err


async def test_a_second_session_is_refused_with_the_servers_reason(shapes):
    second = OpenEnvEnv(OpenEnvTarget(url=shapes.base_url))
    with pytest.raises(EnvError, match="the server refused the session: Server at capacity"):
        await second.connect()
    await second.close()
    assert (await shapes.call_tool("describe", {"size": 4})).text() == "A square of 4x4 pixels."


async def test_app_tasks_pane_pages_the_task_routes_and_starts_a_task(shapes_server):
    """The app's Tasks pane lists the server's tasks; Start task resets into that split+index."""
    async with openenv_tasks_app(shapes_server.base_url, tasks=5) as (pilot, panel):
        assert sorted((t.split, t.index) for t in panel.tasks) == [
            ("test", 0),
            ("test", 1),
            ("train", 0),
            ("train", 1),
            ("train", 2),
        ]
        first = await call(pilot, "describe", {"size": 16})
        assert first.result.structured != {"task": "test-1"}

        panel.start_task(next(t for t in panel.tasks if (t.split, t.index) == ("test", 1)))
        await wait_idle(pilot)
        after = await call(pilot, "describe", {"size": 16})
        assert after.status == "ok", after.message
        assert after.result.structured == {"task": "test-1"}


async def test_the_tasks_pane_names_the_task_the_app_was_started_in(shapes_server):
    """`--openenv-task test:1`: the app is in that task from the start, so the Tasks pane
    says so (not "none started") and the verifier runs for it."""
    async with openenv_tasks_app(shapes_server.base_url, tasks=5, task=("test", 1)) as (
        pilot,
        panel,
    ):
        status = panel.query_one("#task-status", Static)
        await wait_for(pilot, lambda: panel.active is not None)
        assert (panel.active.split, panel.active.index) == ("test", 1)
        assert f"task: {panel.active.key}" in str(status.content)
        assert "none started" not in str(status.content)
        pilot.app.start_reset()
        await wait_idle(pilot)
        assert "none started" not in str(status.content)
        after = await call(pilot, "describe", {"size": 16})
        assert after.result.structured == {"task": "test-1"}


def test_fleet_tui_openenv_serve_serves_the_ors_package_too(openenv_venv, shapes_server, capsys):
    package = Path(shapes_server.log_path).parent / "shapes"
    launched = serve_with_launcher(openenv_venv, package)
    try:
        task = ["--openenv", launched.base_url, "--openenv-token", launched.token]
        task += ["--openenv-task", "test:1"]
        assert main(["call", *task, "answer", "-a", "colour=green"]) == 0
        assert "reward: 1.0  done: true" in capsys.readouterr().out
    finally:
        launched.stop()
