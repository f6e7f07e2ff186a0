"""The table of target options read both ways: any target written as command-line words
(`to_argv`) and read back by the same argparse options every command adds (`from_argv`) is the
same target, and so is the `fleet-tui call` line the app writes, read by that command's own
parser."""

from __future__ import annotations

import shlex

from hypothesis import given
from hypothesis import strategies as st

from fleet_tui.call_command import call_command
from fleet_tui.commands import command_parser
from fleet_tui.commands.target_options import target_from_args
from fleet_tui.envs.targets import (
    TARGET,
    FleetTarget,
    LocalTarget,
    McpTarget,
    OpenEnvTarget,
    Target,
    target_fields_of,
)
from fleet_tui.target_argv import HEADER_NAME, from_argv, to_argv

words = st.text(max_size=12)
names = st.text(min_size=1, max_size=12).filter(lambda name: name != "--")
"""Not `--` itself: argparse (Python 3.11) drops a value `--`, even given as `--flag=--`."""
maybe = st.none() | names
header_names = st.from_regex(HEADER_NAME, fullmatch=True).filter(lambda name: len(name) < 20)
header_values = names.filter(lambda v: v == v.strip() and not any(c in v for c in "\r\n\0"))
env_names = names.filter(lambda key: "=" not in key)


@st.composite
def instance_fields(draw: st.DrawFn) -> dict:
    """The fields an instance target (Fleet or local) may have: an env key or an instance."""
    attach = draw(st.booleans())
    return {
        "env_key": None if attach else draw(names),
        "instance": draw(names) if attach else None,
        "data_key": draw(maybe),
        "region": draw(maybe),
        "image_type": draw(maybe),
        "ttl_seconds": draw(st.none() | st.integers(-(2**40), 2**40)),
        "heartbeat_seconds": draw(st.none() | st.integers(1, 2**40)),
        "env_variables": draw(st.dictionaries(env_names, words, max_size=3)),
        "keep": draw(st.booleans()),
    }


@st.composite
def mcp_targets(draw: st.DrawFn) -> McpTarget:
    urls = draw(st.lists(words, max_size=3))
    stdio = draw(st.lists(words, min_size=0 if urls else 1, max_size=3))
    headers = draw(st.dictionaries(header_names, header_values, max_size=3)) if urls else {}
    return McpTarget(urls=urls, stdio=stdio, headers=headers)


targets = st.one_of(
    st.builds(lambda fields, base_url: FleetTarget(**fields, base_url=base_url),
              instance_fields(), maybe),
    st.builds(lambda fields: LocalTarget(**fields), instance_fields()),
    mcp_targets(),
    st.builds(OpenEnvTarget, url=names, task=st.none() | st.tuples(names, st.integers())),
)  # fmt: skip


@given(targets)
def test_a_target_written_as_words_reads_back_the_same(target: Target) -> None:
    assert TARGET.validate_python(from_argv(to_argv(target_fields_of(target)))) == target


@given(targets)
def test_every_target_field_is_written(target: Target) -> None:
    fields = target_fields_of(target)
    assert target_fields_of(TARGET.validate_python(from_argv(to_argv(fields)))) == fields


def test_the_call_line_the_app_writes_is_read_back_by_fleet_tui_call() -> None:
    shown = [
        LocalTarget(env_key="tracker", data_key="d:1", env_variables={"MODE": "x"}),
        FleetTarget(instance="i-1", base_url="http://host:1"),
        McpTarget(urls=["http://a/mcp", "-odd"], stdio=["python -m server"]),
        OpenEnvTarget(url="http://h:8000", task=("test", 3)),
    ]
    for target in shown:
        line = call_command(target, "--mcp=not-an-option", {"n": 1})
        args = command_parser("call").parse_args(shlex.split(line)[2:])
        assert args.tool == "--mcp=not-an-option" and args.args == '{"n":1}'
        lifetime = {"ttl_seconds", "heartbeat_seconds", "keep"}
        read = target_from_args(args).model_dump(exclude=lifetime)
        assert read == target.model_dump(exclude=lifetime), line
