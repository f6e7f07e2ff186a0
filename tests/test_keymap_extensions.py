"""Extension actions are typed end to end: each key that runs one names its `Extension`."""

from __future__ import annotations

from fleet_tui.ui.keymap import ACTIONS, Extension


def test_every_extension_action_names_its_extension():
    running_one = [action for action in ACTIONS if action.name.startswith("extension(")]
    assert running_one
    assert all(action.extension is not None for action in running_one)
    assert all(action.name == f"extension('{action.extension}')" for action in running_one)


def test_every_extension_has_an_action():
    assert {action.extension for action in ACTIONS if action.extension} == set(Extension)
