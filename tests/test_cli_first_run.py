"""What a newcomer's first mistakes get: `fleet-tui` alone a short usage naming `demo`, an env
key the local host lacks an error listing its envs before the app opens, and the app without a
terminal an error instead of escape codes written into a file."""

from __future__ import annotations

import shlex
import shutil
import sys

import pytest

from tests.cli_run import assert_one_line_error, fleet_tui


def test_fleet_tui_alone_prints_a_short_usage_naming_demo_and_the_target_flags():
    result = fleet_tui()
    assert result.returncode == 2
    assert result.stdout == ""
    usage = result.stderr
    assert "fleet-tui demo" in usage
    for flag in ("--local", "--mcp URL", "--stdio COMMAND", "--openenv URL", "tracker"):
        assert flag in usage, usage
    assert len(usage.splitlines()) <= 8


@pytest.mark.parametrize("command", [["--local", "nosuchenv"], ["tools", "nosuchenv", "--local"]])
def test_an_env_key_the_local_host_lacks_lists_its_envs(command):
    result = fleet_tui(*command)
    assert_one_line_error(result, 2, "no env 'nosuchenv'; its envs: tracker, desktop-todo")
    assert result.stdout == ""


@pytest.mark.parametrize("command", [["demo"], ["tracker", "--local"]])
def test_the_app_without_a_terminal_exits_2_and_writes_no_escape_codes(command):
    result = fleet_tui(*command)
    assert_one_line_error(result, 2, "the app needs a terminal")
    assert result.stdout == ""


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_terminal_an_unknown_local_env_ends_before_the_app_opens():
    from tests.test_tmux_e2e import start_in_tmux, tmux, wait_screen

    app = shlex.join([sys.executable, "-m", "fleet_tui", "--local", "nosuchenv"])
    session = start_in_tmux(f"{app}; echo exit=$?; sleep 60", "first")
    try:
        screen = wait_screen(session, "exit=2")
    finally:
        tmux("kill-session", "-t", session)
    assert "its envs: tracker, desktop-todo" in screen
    assert "Connect" not in screen
