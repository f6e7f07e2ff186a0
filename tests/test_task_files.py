"""tasks/files.py: Fleet task files in their accepted shapes, and the errors for bad ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fleet_tui.local
from fleet_tui.envs.base import EnvError
from fleet_tui.tasks.files import find_task, load_tasks

BUNDLED = Path(fleet_tui.local.__file__).parent / "tasks"


def write(tmp_path: Path, data) -> Path:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(data))
    return path


def test_array_with_fleet_aliases(tmp_path):
    path = write(
        tmp_path,
        [
            {"id": "a", "env_id": "tracker", "verifier_func": "def v(env): return 1"},
            {"key": "b", "env_key": "desk", "verifier_code": "def v(env): return 0"},
            {"key": "c", "verifier": {"code": "def v(env): return 2"}, "metadata": {"x": 1}},
        ],
    )

    a, b, c = load_tasks(path)

    assert (a.key, a.env_key, a.verifier_code) == ("a", "tracker", "def v(env): return 1")
    assert (b.key, b.env_key, b.verifier_code) == ("b", "desk", "def v(env): return 0")
    assert (c.key, c.env_key, c.verifier_code) == ("c", None, "def v(env): return 2")
    assert c.model_extra == {"metadata": {"x": 1}}


def test_tasks_object_keeps_the_fleet_fields(tmp_path):
    task = {
        "key": "k",
        "prompt": "Do it",
        "env_key": "tracker",
        "version": "v1.2.0",
        "task_modality": "tool_use",
        "env_variables": None,
        "verifier_func": "x = 1",
    }

    (loaded,) = load_tasks(write(tmp_path, {"tasks": [task]}))

    assert (loaded.prompt, loaded.version, loaded.task_modality) == ("Do it", "v1.2.0", "tool_use")
    assert loaded.env_variables == {}


@pytest.mark.parametrize("name", ["tracker.json", "desktop-todo.json"])
def test_bundled_task_files_load(name):
    tasks = load_tasks(BUNDLED / name)

    assert tasks and all(task.verifier_code and task.env_key for task in tasks)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"items": []}', 'neither a JSON array nor {"tasks": [...]}'),
        ("[1]", "task #1 in"),
        ('[{"prompt": "no key"}]', "has no key (or id)"),
        ('[{"key": "k", "version": 3}]', "is malformed"),
    ],
)
def test_bad_files_are_one_line_errors(tmp_path, content, message):
    path = tmp_path / "tasks.json"
    path.write_text(content)

    with pytest.raises(EnvError) as caught:
        load_tasks(path)

    assert message in caught.value.message
    assert "\n" not in caught.value.message


def test_missing_file(tmp_path):
    with pytest.raises(EnvError, match="cannot read task file"):
        load_tasks(tmp_path / "nope.json")


def test_find_task_lists_the_keys(tmp_path):
    tasks = load_tasks(write(tmp_path, [{"key": "one"}, {"key": "two"}]))

    assert find_task(tasks, "two").key == "two"
    with pytest.raises(EnvError, match="no task 'three' in the file \\(tasks: one, two\\)"):
        find_task(tasks, "three")
