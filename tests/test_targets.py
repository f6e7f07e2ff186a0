"""Targets: one model per kind, told apart by `kind`; dumps (old and new) read back; the
conversions tasks make keep each target's kind."""

from __future__ import annotations

import json

import pytest

from fleet_tui.cli import main
from fleet_tui.envs.base import EnvError, Task
from fleet_tui.envs.targets import (
    FleetTarget,
    LocalTarget,
    McpTarget,
    OpenEnvTarget,
    load_target,
)
from fleet_tui.session.reader import load_session
from fleet_tui.tasks.provision import task_target

OLD_DUMP_FIELDS = {
    "env_key": None,
    "instance": None,
    "local": False,
    "base_url": None,
    "mcp": [],
    "openenv": None,
    "openenv_task": None,
    "data_key": None,
    "region": None,
    "image_type": None,
    "ttl_seconds": None,
    "heartbeat_seconds": None,
    "env_variables": {},
    "keep": False,
}
"""What a session file recorded before targets had kinds: every kind's fields, all of them."""


def old_dump(**fields) -> dict:
    return OLD_DUMP_FIELDS | fields


@pytest.mark.parametrize(
    ("dump", "expected"),
    [
        (
            old_dump(env_key="tracker", base_url="http://h", data_key="d:1", keep=True),
            FleetTarget(env_key="tracker", base_url="http://h", data_key="d:1", keep=True),
        ),
        (
            old_dump(env_key="tracker", local=True, heartbeat_seconds=60),
            LocalTarget(env_key="tracker", heartbeat_seconds=60),
        ),
        (
            old_dump(mcp=["http://a/mcp", "http://b/mcp"]),
            McpTarget(urls=["http://a/mcp", "http://b/mcp"]),
        ),
        (
            old_dump(openenv="http://o:8000", openenv_task=["test", 3]),
            OpenEnvTarget(url="http://o:8000", task=("test", 3)),
        ),
    ],
)
def test_an_old_dump_without_kind_reads_as_the_kind_it_meant(dump, expected):
    assert load_target(dump) == expected


@pytest.mark.parametrize(
    "target",
    [
        FleetTarget(env_key="tracker", region="eu", env_variables={"MODE": "fast"}),
        LocalTarget(instance="abc", keep=True),
        McpTarget(urls=["http://a/mcp"]),
        OpenEnvTarget(url="http://o:8000", task=("train", 0)),
    ],
)
def test_a_dump_reads_back_as_the_same_target(target):
    assert load_target(json.loads(json.dumps(target.model_dump(mode="json")))) == target


def test_the_api_key_is_not_dumped():
    dump = FleetTarget(env_key="tracker", api_key="sk-secret-1").model_dump(mode="json")
    assert dump["kind"] == "fleet"
    assert "sk-secret-1" not in json.dumps(dump)


def test_a_session_file_of_an_older_version_still_loads_with_its_target(tmp_path):
    path = tmp_path / "old.jsonl"
    lines = [
        {"event": "session", "seq": 1, "at": "2026-01-01T00:00:00Z", "version": 1},
        {
            "event": "connect",
            "seq": 2,
            "at": "2026-01-01T00:00:01Z",
            "target": old_dump(env_key="tracker", local=True),
            "info": {"kind": "local", "env_key": "tracker"},
            "tools": ["list_issues"],
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    session = load_session(path)
    assert session.problems == []
    assert session.connect().target == LocalTarget(env_key="tracker")
    assert session.connect().tools == ["list_issues"]


def test_a_connect_line_with_a_target_it_cannot_read_keeps_the_rest(tmp_path):
    path = tmp_path / "odd.jsonl"
    line = {"event": "connect", "seq": 1, "at": "x", "target": {"kind": "ftp"}, "tools": ["t"]}
    path.write_text(json.dumps(line) + "\n")
    session = load_session(path)
    assert session.connect().target is None
    assert session.connect().tools == ["t"]


def test_a_task_on_a_local_target_stays_local_with_the_tasks_env():
    base = LocalTarget(env_key="other", instance="i-1", env_variables={"A": "1"}, keep=True)
    task = Task(key="t", env_key="tracker", version="2", env_variables={"B": 2})
    target = task_target(task, base)
    assert target == LocalTarget(env_key="tracker:2", env_variables={"A": "1", "B": "2"}, keep=True)


def test_a_local_target_moved_onto_a_running_host_is_a_fleet_target_with_its_key():
    target = LocalTarget(env_key="tracker", ttl_seconds=30).on_host("http://127.0.0.1:1", "tok")
    assert target == FleetTarget(
        env_key="tracker", ttl_seconds=30, base_url="http://127.0.0.1:1", api_key="tok"
    )


def test_a_task_on_an_openenv_target_keeps_the_server_and_on_mcp_is_refused():
    openenv = OpenEnvTarget(url="http://o:8000")
    assert task_target(Task(key="t", env_key="tracker"), openenv) is openenv
    with pytest.raises(EnvError, match="MCP endpoints cannot provision"):
        task_target(Task(key="t", env_key="tracker"), McpTarget(urls=["http://a/mcp"]))


def test_mcp_combined_with_an_env_key_or_openenv_is_refused(capsys):
    assert main(["tools", "tracker", "--mcp", "http://127.0.0.1:9/mcp"]) == 2
    assert "--mcp and --stdio cannot be combined with a Fleet env key" in capsys.readouterr().err
    assert (
        main(["tools", "--openenv", "http://127.0.0.1:9", "--mcp", "http://127.0.0.1:9/mcp"]) == 2
    )
    assert "--openenv cannot be combined" in capsys.readouterr().err


def test_openenv_url_errors_name_the_server_not_a_flag(capsys):
    assert main(["tools", "--openenv", "ftp://h:1"]) == 2
    error = capsys.readouterr().err
    assert "an OpenEnv server's URL starts with http(s)://" in error
    assert "--openenv" not in error
