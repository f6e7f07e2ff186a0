"""The headless commands end to end, each in a subprocess, against the embedded Fleet host
(through `--base-url`, so the test can see which instances stay running), plain MCP servers
and an OpenEnv server. Keep/attach, errors and signals are in test_cli_lifecycle.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest

from fleet_tui.commands.call import parse_arguments, unknown_arguments
from fleet_tui.envs.base import Tool
from tests.cli_run import (
    TASKS,
    assert_one_line_error,
    child_env,
    fleet_tui,
    run_together,
    running_ids,
)
from tests.fixtures.mcp_servers import ServedMcp
from tests.unruly_verifiers import process_alive


@pytest.fixture
def host(local_host) -> Iterator[list[str]]:
    """`--base-url` for the local host; checks the command left no instance running."""
    before = running_ids(local_host)
    yield ["--base-url", local_host.base_url]
    assert running_ids(local_host) == before, "the command left an instance running"


# -- happy paths -------------------------------------------------------------------------------


def test_envs(host):
    result = fleet_tui("envs", *host, "--json")

    assert result.returncode == 0, result.stderr
    assert {env["env_key"] for env in json.loads(result.stdout)} == {"tracker", "desktop-todo"}


def test_tools_lists_the_union_with_owners(host, local_host):
    result = fleet_tui("tools", "tracker", *host, "--json")

    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    endpoints = {
        tool["endpoint"].split("/instances/")[1].split("/", 1)[1] for tool in listing["tools"]
    }
    assert endpoints == {"mcp", "api/v1/mcp"}
    assert [e["state"] for e in listing["endpoints"]] == ["up", "up"]


def test_call_saves_the_screenshot(host, tmp_path):
    result = fleet_tui(
        "call",
        "desktop-todo",
        *host,
        "computer",
        "-a",
        "action=screenshot",
        "--save-images",
        str(tmp_path),
    )

    assert result.returncode == 0, result.stderr
    saved = list(tmp_path.glob("*.png"))
    assert len(saved) == 1 and saved[0].read_bytes().startswith(b"\x89PNG")
    assert str(saved[0]) in result.stdout


def test_args_json_and_raw_json_pairs_merge():
    arguments = parse_arguments('{"project": "WEB", "limit": 5}', ["limit=2", 'q="a b"', "on=true"])

    assert arguments == {"project": "WEB", "limit": 2, "q": "a b", "on": True}


def test_arguments_the_schema_does_not_list_are_warned_about():
    tool = Tool(name="t", input_schema={"type": "object", "properties": {"a": {}, "b": {}}})
    free = Tool(name="free", input_schema={"type": "object"})

    assert unknown_arguments([tool], "t", {"a": 1, "c": 2}) == [
        "t has no argument 'c' (it takes: a, b)"
    ]
    assert unknown_arguments([tool], "t", {"a": 1}) == []
    assert unknown_arguments([free], "free", {"anything": 1}) == []


def test_call_tool_error_exits_1(host):
    result = fleet_tui("call", "tracker", *host, "get_issue", "-a", "issue_id=99999")

    assert_one_line_error(result, 1, "tool 'get_issue' reported an error")
    assert "99999" in result.stdout


def test_reset_with_seed(host):
    result = fleet_tui("reset", "tracker", *host, "--seed", "3", "--json")

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["success"] is True
    assert json.loads(result.stdout)["seed"] == 3


def test_verify_passing_and_raising_verifiers(host, tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(TASKS))
    verify = ["verify", *host, "--tasks", str(tasks), "--task"]

    passed, raised = run_together(
        [*verify, "count-issues", "--final-answer", "8"], [*verify, "explodes", "--json"]
    )

    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "PASSED" in passed.stdout and "issues: 8" in passed.stdout
    assert raised.returncode == 1, raised.stderr
    verdict = json.loads(raised.stdout)
    assert (verdict["success"], verdict["error_type"]) == (False, "KeyError")


MODULE_LEVEL_TASKS = {
    "tasks": [
        {
            "key": "loops-at-import",
            "env_key": "tracker",
            "verifier_func": "while True:\n    pass\n\ndef verify(env, final_answer=None):\n"
            "    return 1.0\n",
        },
        {
            "key": "prints-at-import",
            "env_key": "tracker",
            "verifier_func": "import os\nprint('module level noise')\n"
            "os.write(1, b'x' * 200_000)  # one long line, straight to the file descriptor\n\n"
            "def verify(env, final_answer=None):\n    raise KeyError('x')\n",
        },
    ]
}


def test_verify_runs_module_level_code_away_from_the_command(host, tmp_path):
    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps(MODULE_LEVEL_TASKS))
    verify = ["verify", *host, "--tasks", str(tasks), "--timeout", "1", "--task"]

    looped, printed = run_together(
        [*verify, "loops-at-import"], [*verify, "prints-at-import", "--json"]
    )

    assert looped.returncode == 1, looped.stderr
    assert "FAILED" in looped.stdout
    assert "error: Timeout: the verifier's module code did not finish within 1 s" in looped.stdout
    assert printed.returncode == 1, printed.stderr
    verdict = json.loads(printed.stdout)  # nothing but the verdict on stdout
    assert (verdict["success"], verdict["error_type"]) == (False, "KeyError")


def test_verify_timeout_bounds_the_remote_run_and_module_code_processes(host, tmp_path):
    pid_file = tmp_path / "pid"
    escapes_at_import = (
        "import subprocess, sys\n"
        "sleeper = [sys.executable, '-c', 'import time; time.sleep(300)']\n"
        "pid = subprocess.Popen(sleeper, start_new_session=True).pid\n"
        f"open({str(pid_file)!r}, 'w').write(str(pid))\n"
        "while True:\n    pass\n\n"
        "def verify(env, final_answer=None):\n    return 1.0\n"
    )
    spins = "def verify(env, final_answer=None):\n    while True:\n        pass\n"
    tasks = tmp_path / "tasks.json"
    codes = {"escapes-at-import": escapes_at_import, "spins": spins}
    tasks.write_text(
        json.dumps([{"key": k, "env_key": "tracker", "verifier_func": c} for k, c in codes.items()])
    )
    verify = ["verify", *host, "--tasks", str(tasks), "--timeout", "2", "--json", "--task"]

    escaped, spun = run_together([*verify, "escapes-at-import"], [*verify, "spins"])

    assert escaped.returncode == 1, escaped.stderr
    assert json.loads(escaped.stdout)["error_type"] == "Timeout"
    assert not process_alive(int(pid_file.read_text()))
    assert spun.returncode == 1, spun.stderr
    verdict = json.loads(spun.stdout)
    assert verdict["error_message"] == "the verifier ran longer than 2 s and was stopped"


def test_plain_mcp_endpoints_without_importing_the_ui(mcp_alpha: ServedMcp, mcp_beta: ServedMcp):
    tools = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "fleet_tui",
            "tools",
            "--mcp",
            mcp_alpha.url,
            "--mcp",
            mcp_beta.url,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=child_env(),
    )
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in tools.stderr.splitlines()
        if line.startswith("import time:")
    ]

    assert tools.returncode == 0, tools.stderr
    assert "13 tools" in tools.stdout  # the 3 names both offer are reached on each
    assert f"{mcp_beta.url}  (up, owns 8 of its 8 tools)" in tools.stdout
    assert "alpha/whoami" in tools.stdout and "beta/whoami" in tools.stdout
    # the SDK's types (its client modules load through importlib, which -X importtime does
    # not report; test_import_paths checks them in sys.modules)
    assert "mcp_types" in imported
    heavy = ("textual", "fleet_tui.ui", "fleet.")
    assert not [name for name in imported if name == "fleet" or name.startswith(heavy)]


def test_openenv_target(openenv_server):
    called = fleet_tui("call", "--openenv", openenv_server.base_url, "echo", "-a", "text=hi there")

    assert called.returncode == 0, called.stderr
    assert "hi there" in called.stdout


def test_escape_sequences_from_the_env_are_stripped(mcp_alpha: ServedMcp):
    result = fleet_tui(
        "call", "--mcp", mcp_alpha.url, "echo", "-a", "text=\x1b]0;pwned\x07\x1b[31mred\x1b[0m"
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout == "red\n"


def test_a_tool_name_holding_an_escape_is_listed_with_the_escape_shown(mcp_hostile: ServedMcp):
    result = fleet_tui("tools", "--mcp", mcp_hostile.url)

    assert result.returncode == 0, result.stderr
    assert "esc␛[31mname" in result.stdout and "\x1b" not in result.stdout


def test_local_flag_runs_the_embedded_host_in_process():
    result = fleet_tui("call", "--local", "tracker", "list_users", "--json")

    assert result.returncode == 0, result.stderr
    assert "Starting the embedded local Fleet host" in result.stderr
