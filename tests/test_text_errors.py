"""Exceptions as one line for a user (`fleet_tui.text.describe_error`): the one place the app,
the controller and the envs turn an error into text."""

from __future__ import annotations

from fleet_tui.envs.base import EnvError
from fleet_tui.text import describe_error


def test_an_env_error_is_said_as_written_even_inside_task_groups():
    error = ExceptionGroup("outer", [ExceptionGroup("inner", [EnvError("the host is gone")])])
    assert describe_error(error) == "the host is gone"


def test_other_errors_are_named_and_repeats_said_once():
    error = ExceptionGroup("g", [ValueError("bad input"), ValueError("bad input")])
    assert describe_error(error) == "ValueError: bad input"
    assert describe_error(RuntimeError()) == "RuntimeError"
