"""Read task files in Fleet's JSON format.

Accepted like `Fleet.load_tasks_from_file`: a JSON array or `{"tasks": [...]}`; `key` falls back
to `id`, `env_key` to `env_id`, and the verifier code comes from `verifier_func`,
`verifier_code` or `verifier.code`. Other fields are kept on the Task.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fleet_tui.envs.base import EnvError, Task
from fleet_tui.text import flat

CONSUMED = ("key", "id", "env_key", "env_id", "verifier_func", "verifier_code", "verifier")


def load_tasks(path: str | Path) -> list[Task]:
    """The tasks in a file; EnvError with a one-line reason when it cannot be read."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise EnvError(f"cannot read task file {path}: {error.strerror}") from None
    except ValueError as error:
        raise EnvError(f"task file {path} is not valid JSON: {error}") from None
    items = data.get("tasks") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise EnvError(f'task file {path} holds neither a JSON array nor {{"tasks": [...]}}')
    return [task_from_dict(item, f"task #{n + 1} in {path}") for n, item in enumerate(items)]


def task_from_dict(item: Any, where: str) -> Task:
    """One task from its Fleet JSON form."""
    if not isinstance(item, dict):
        raise EnvError(f"{where} is not a JSON object")
    key = item.get("key") or item.get("id")
    if not key:
        raise EnvError(f"{where} has no key (or id)")
    verifier = item.get("verifier")
    code = (
        item.get("verifier_func")
        or item.get("verifier_code")
        or (verifier.get("code") if isinstance(verifier, dict) else None)
    )
    extra = {name: value for name, value in item.items() if name not in CONSUMED}
    extra["env_variables"] = extra.get("env_variables") or {}
    try:
        return Task(
            **extra,
            key=str(key),
            env_key=item.get("env_key") or item.get("env_id"),
            verifier_code=code,
        )
    except ValueError as error:
        raise EnvError(f"{where} is malformed: {flat(str(error))}") from None


def find_task(tasks: list[Task], key: str) -> Task:
    """The task with this key, or an EnvError listing the keys there are."""
    for task in tasks:
        if task.key == key:
            return task
    keys = ", ".join(task.key for task in tasks) or "none"
    raise EnvError(f"no task {key!r} in the file (tasks: {keys})")
