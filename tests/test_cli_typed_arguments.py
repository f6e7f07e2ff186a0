"""`fleet-tui call TARGET TOOL -a key=value` against a real server: values take the types the
tool declares, and bad ones are refused before any call reaches the server."""

from __future__ import annotations

import json

from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.asking_server import CALLS
from tests.fixtures.mcp_servers import ServedMcp


def call_typed(asking: ServedMcp, *words: str):
    return fleet_tui("call", "--mcp", asking.url, "typed", "--json", *words)


def sent(result) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(json.loads(result.stdout)["blocks"][0]["text"])


def test_a_string_parameter_gets_a_string_even_when_it_looks_like_a_number(asking: ServedMcp):
    arguments = sent(call_typed(asking, "-a", "message=123"))
    assert arguments["message"] == "123"


def test_numbers_booleans_enums_and_lists_are_parsed_for_their_types(asking: ServedMcp):
    result = call_typed(
        asking,
        *("-a", "message=hi", "-a", "count=7", "-a", "ratio=0.25", "-a", "loud=true"),
        *("-a", "colour=green", "-a", 'tags=["x", "y"]'),
    )
    arguments = sent(result)
    assert arguments["count"] == 7 and arguments["ratio"] == 0.25 and arguments["loud"] is True
    assert arguments["colour"] == "green" and arguments["tags"] == ["x", "y"]


def test_raw_json_pairs_are_sent_as_given(asking: ServedMcp):
    arguments = sent(call_typed(asking, "-j", 'message="hi"', "-j", "note=null"))
    assert arguments["message"] == "hi" and arguments["note"] is None


def test_a_bad_integer_is_a_plain_error_and_nothing_reaches_the_server(asking: ServedMcp):
    before = len(CALLS)
    result = call_typed(asking, "-a", "message=hi", "-a", "count=many")
    assert_one_line_error(result, 2, "typed: count: not an integer (nothing was sent)")
    assert CALLS[before:] == []


def test_a_value_outside_the_enum_is_refused_before_sending(asking: ServedMcp):
    before = len(CALLS)
    result = call_typed(asking, "-a", "message=hi", "-a", "colour=blue")
    assert_one_line_error(result, 2, "colour: 'blue' is not one of ['red', 'green']")
    assert CALLS[before:] == []


def test_a_missing_required_argument_is_refused_before_sending(asking: ServedMcp):
    before = len(CALLS)
    result = call_typed(asking, "-a", "count=1")
    assert_one_line_error(result, 2, "typed: the arguments break its schema: message: required")
    assert CALLS[before:] == []


def test_unchecked_sends_arguments_that_break_the_schema(asking: ServedMcp):
    result = call_typed(asking, "--unchecked", "-a", "message=hi", "-a", "colour=blue")
    assert "sending anyway: colour:" in result.stderr
    assert result.returncode == 1  # the server's own check refused it
    assert "input_value='blue'" in json.loads(result.stdout)["blocks"][0]["text"]


def test_a_parameter_with_no_declared_type_takes_the_text_as_a_string(asking: ServedMcp):
    result = fleet_tui("call", "--mcp", asking.url, "loose", "--json", "-a", "anything=hello")
    assert sent(result)["anything"] == "hello"
    result = fleet_tui("call", "--mcp", asking.url, "loose", "--json", "-j", "anything=[1, 2]")
    assert sent(result)["anything"] == [1, 2]


def test_a_boolean_or_string_takes_the_string_unless_it_is_exactly_true_or_false(
    asking: ServedMcp,
):
    for text, value in (("yes", "yes"), ("on", "on"), ("1", "1"), ("true", True), ("false", False)):
        result = fleet_tui("call", "--mcp", asking.url, "loose", "--json", "-a", f"flag={text}")
        assert sent(result)["flag"] == value, text
