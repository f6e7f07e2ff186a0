"""Counts and long strings as a person reads them: `1 tool`, a base64 picture cut in its middle."""

from __future__ import annotations

from fleet_tui.text import counted, elided_strings


def test_counts_say_one_thing_or_several():
    assert [counted(n, "tool") for n in (0, 1, 2)] == ["0 tools", "1 tool", "2 tools"]
    assert counted(1, "entry", "entries") == "1 entry" and counted(3, "entry", "entries") == (
        "3 entries"
    )


def test_long_strings_are_cut_in_the_middle_keeping_the_shape():
    value = {"image": "A" * 1000 + "Z", "list": ["short", "b" * 50]}
    assert elided_strings(value, 10) == {
        "image": "AAAAA…[991 characters]…AAAAZ",
        "list": ["short", "bbbbb…[40 characters]…bbbbb"],
    }


def test_cutting_strings_within_a_budget_gives_up_once_the_strings_alone_pass_it():
    listing = {"tools": [{"name": f"tool_{i}", "description": "d" * 90} for i in range(10_000)]}
    assert elided_strings(listing, 10, within=64 * 1024) is None

    picture = {"image": "A" * 1_000_000, "name": "shot"}
    assert elided_strings(picture, 10, within=64) == {
        "image": "AAAAA…[999,990 characters]…AAAAA",
        "name": "shot",
    }
