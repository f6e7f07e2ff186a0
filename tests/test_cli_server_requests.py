"""Headless commands answer a server's questions without asking anyone: elicitations are
declined unless `--elicit JSON` (checked against the schema the server asks for) answers
them, sampling is declined, and the roots are those of `--root PATH` (none by default)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.mcp_servers import ServedMcp


def call(asking: ServedMcp, tool: str, *words: str):
    return fleet_tui("call", "--mcp", asking.url, tool, *words)


def test_an_elicitation_is_declined_without_elicit(asking: ServedMcp):
    result = call(asking, "book")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"action": "decline", "data": None}
    assert "the server asks: Book a table [b]tonight[/b]?; declined" in result.stderr


def test_elicit_accepts_with_the_given_answer(asking: ServedMcp):
    answer = '{"name": "Ada", "guests": 2, "vegetarian": true}'
    result = call(asking, "book", "--elicit", answer)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "action": "accept",
        "data": {"name": "Ada", "guests": 2, "seating": "inside", "vegetarian": True},
    }


def test_an_elicitation_too_deep_for_the_sdk_is_answered_with_the_forms_budget_note(
    asking: ServedMcp,
):
    result = fleet_tui("call", "--mcp", asking.url, "deep", "-a", "levels=100", "--elicit", "{}")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"action": "accept"}
    assert (
        "the server asks: Fill this in; accepted with --elicit, unchecked: "
        "schema too complex to validate: nested deeper than 64 levels"
    ) in result.stderr


def test_an_elicit_answer_that_breaks_the_schema_cancels_and_the_call_ends(asking: ServedMcp):
    # the call was sent: its result is printed, and exit 1 (not 2, a usage error) says the
    # answer given was not the one sent
    result = call(asking, "book", "--elicit", '{"name": "Ada", "guests": 40}')
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"action": "cancel", "data": None}
    assert "--elicit does not match the schema the server asked for" in result.stderr
    assert "guests: 40 is greater than the maximum of 12" in result.stderr


def test_elicit_that_is_not_a_json_object_is_refused_before_connecting(asking: ServedMcp):
    result = call(asking, "book", "--elicit", "[1]")
    assert_one_line_error(result, 2, "--elicit must be a JSON object, got list")
    assert "Connecting" not in result.stderr


def test_a_url_elicitation_is_shown_and_declined(asking: ServedMcp):
    result = call(asking, "visit")
    assert json.loads(result.stdout) == {"action": "decline"}
    assert "visit https://example.com/login" in result.stderr


def test_sampling_is_declined_headless(asking: ServedMcp):
    result = call(asking, "ask_model", "-a", "question=hi")
    assert result.stdout.startswith("no reply:") and "declined" in result.stdout


def test_no_roots_are_offered_unless_given(asking: ServedMcp, tmp_path: Path):
    default = call(asking, "roots")
    assert json.loads(default.stdout) == []
    given = call(asking, "roots", "--root", str(tmp_path), "--root", ".")
    assert json.loads(given.stdout) == [tmp_path.resolve().as_uri(), Path.cwd().resolve().as_uri()]


def test_a_root_that_is_not_a_directory_is_refused(asking: ServedMcp, tmp_path: Path):
    result = call(asking, "roots", "--root", str(tmp_path / "missing"))
    assert_one_line_error(result, 2, "missing: not a directory")


def test_the_client_introduces_itself_as_fleet_tui_and_its_version(asking: ServedMcp):
    from fleet_tui import __version__

    result = call(asking, "client_info")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"name": "fleet-tui", "version": __version__}


def test_a_call_refused_until_a_page_is_opened_prints_the_page(asking: ServedMcp):
    result = call(asking, "linked")
    assert result.returncode == 1, result.stderr
    assert "URL elicitation required" in result.stdout
    assert "https://example.com/link?session=7  (Link your [b]account[/b])" in result.stdout
