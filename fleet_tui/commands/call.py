"""`fleet-tui call TARGET TOOL [--args JSON] [-a key=value] [-j key=JSON] [--save-media DIR]`.

JSON is checked before anything is provisioned; `-a` values are read by the type the tool's
schema declares (forms/typed_text.py) and the arguments checked against the schema before the
call is sent. Images, audio and other binary blocks are written as files and their paths printed;
exit code 1 when the tool reports an error. On an episodic env (OpenEnv) the observation the call
acted on (the reset's) is printed first, and an action the env refused says which fields. The
server's progress reports go to stderr, and its log messages with `--log-level LEVEL`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

from fleet_tui.commands.blocks_output import (
    add_media_option,
    print_block,
    result_json,
)
from fleet_tui.commands.client_options import (
    HeadlessAnswers,
    add_elicit_argument,
    add_protocol_argument,
    add_root_argument,
    add_timeout_argument,
)
from fleet_tui.commands.output import Output
from fleet_tui.commands.server_output import add_server_arguments
from fleet_tui.commands.target_options import add_repeatable
from fleet_tui.commands.tools import answering_servers
from fleet_tui.commands.warm import add_keep_warm_argument
from fleet_tui.envs.base import (
    EnvError,
    ResetResult,
    TextBlock,
    Tool,
    ToolResult,
)
from fleet_tui.envs.call_clock import call_limit
from fleet_tui.envs.tool_hints import is_destructive
from fleet_tui.envs.tool_tasks import optional_tools_as_tasks
from fleet_tui.media_files import BlockFiles
from fleet_tui.target_argv import add_target_arguments, json_object, key_value
from fleet_tui.text import pretty_json, visible

if TYPE_CHECKING:
    from fleet_tui.commands.lifecycle import SessionCommand
    from fleet_tui.controller import SessionController

INTERMIXED = True
"""Options may come between the positionals (ENV_KEY and the name)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target_arguments(parser)
    parser.add_argument("tool", metavar="TOOL", help="the tool to call")
    parser.add_argument("--args", metavar="JSON", help="the arguments as a JSON object")
    add_repeatable(
        parser,
        "-a",
        dest="pairs",
        metavar="KEY=VALUE",
        help="one argument (repeatable); VALUE is read as the type the tool's schema declares "
        "(a string stays a string)",
    )
    add_repeatable(
        parser,
        "-j",
        dest="json_pairs",
        metavar="KEY=JSON",
        help="one argument given as raw JSON (repeatable)",
    )
    parser.add_argument(
        "--unchecked",
        action="store_true",
        help="send the arguments even when they break the tool's schema",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="call a tool its server marks destructive without asking (asked only on a terminal)",
    )
    parser.add_argument(
        "--as-task",
        action="store_true",
        help="run a tool whose task support is optional as an MCP task (tools that require "
        "it always are)",
    )
    add_media_option(parser)
    parser.add_argument("--json", action="store_true", help="print JSON on stdout")
    add_server_arguments(parser)
    add_elicit_argument(parser)
    add_root_argument(parser)
    add_protocol_argument(parser)
    add_timeout_argument(parser)
    add_keep_warm_argument(parser)


def parse_arguments(args_json: str | None, json_pairs: list[str]) -> dict[str, Any]:
    """`--args` merged with the `-j key=JSON` pairs (pairs win); EnvError on bad input."""
    from fleet_tui.forms.typed_values import parse_json

    arguments = json_object(args_json, "--args") if args_json is not None else {}
    for pair in json_pairs:
        key, value = key_value(pair, "-j")
        try:
            arguments[key] = parse_json(value)
        except ValueError as error:
            raise EnvError(f"-j {key}: {error}") from None
    return arguments


def checked_arguments(
    tools: list[Tool], args: argparse.Namespace, base: dict[str, Any], out: Output
) -> dict[str, Any]:
    """The arguments to send: `base` with the `-a` pairs read by the tool's schema; EnvError
    (nothing sent) when a value cannot be read or, unless `--unchecked`, breaks the schema."""
    from fleet_tui.forms.typed_text import schema_errors, typed_arguments
    from fleet_tui.forms.validation import error_line

    tool = next((tool for tool in tools if tool.name == args.tool), None)
    schema = tool.input_schema if tool is not None else True
    pairs = [key_value(pair, "-a") for pair in args.pairs]
    arguments, problems = typed_arguments(schema, pairs, base)
    if problems:
        lines = "; ".join(map(error_line, problems))
        raise EnvError(f"{visible(args.tool)}: {lines} (nothing was sent)")
    if tool is None:
        return arguments
    errors = schema_errors(schema, arguments)
    if errors and not args.unchecked:
        lines = "; ".join(map(error_line, errors))
        raise EnvError(
            f"{visible(args.tool)}: the arguments break its schema: {lines} (nothing was sent; "
            "--unchecked sends them anyway)"
        )
    for error in errors:
        out.warn(f"{visible(args.tool)}: sending anyway: {error_line(error)}")
    return arguments


def session_command(args: argparse.Namespace, out: Output) -> SessionCommand:
    """The call, its JSON and pairs checked first (EnvError: nothing is provisioned)."""
    base = parse_arguments(args.args, args.json_pairs)
    for pair in args.pairs:
        key_value(pair, "-a")
    answers = HeadlessAnswers.from_args(args, out)

    async def work(session: SessionController, out: Output) -> int:
        return await make_call(session, out, args, base, answers)

    return answering_servers(args, out, work, keep_warm=args.keep_warm, answers=answers)


def run(args: argparse.Namespace) -> int:
    from fleet_tui.commands.lifecycle import run_on_session

    out = Output(json=args.json)
    return run_on_session(session_command(args, out), out)


async def make_call(
    session: SessionController,
    out: Output,
    args: argparse.Namespace,
    base: dict[str, Any],
    answers: HeadlessAnswers,
) -> int:
    tools = session.tools
    arguments = checked_arguments(tools, args, base, out)
    for warning in unknown_arguments(tools, args.tool, arguments):
        out.warn(warning)
    if not args.yes and not await agreed_to_destroy(tools, args.tool):
        out.err(f"fleet-tui: {visible(args.tool)} was not called")
        return 1
    acted_on = session.opening_reset
    with call_limit(args.timeout), optional_tools_as_tasks(args.as_task):
        result = await session.call_tool(args.tool, arguments)
    for warning in output_warnings(tools, args.tool, result):
        out.warn(warning)
    for problem in result.problems:
        out.warn(f"{visible(args.tool)}: {problem}")
    files = BlockFiles(args.save_media, args.tool)
    reset_files = BlockFiles(args.save_media, "reset")
    if out.json:
        reset = reset_json(acted_on, reset_files) if acted_on is not None else None
        out.print_json(result_json(args.tool, result, files) | {"reset": reset})
    else:
        if acted_on is not None:
            print_reset(out, acted_on, reset_files)
        print_result(out, result, files)
    if (note := answers.refused_note()) is not None:
        out.err(note)
        return 1
    if result.rejected:
        out.err(f"fleet-tui: the env refused the action of {args.tool!r}: no step was taken")
        return 1
    if result.is_error:
        out.err(f"fleet-tui: tool {args.tool!r} reported an error")
        return 1
    return 0


async def agreed_to_destroy(tools: list[Tool], name: str) -> bool:
    """Whether to call `name`: asked on the terminal when its server marks it destructive
    (without a terminal to ask on, scripts are not stopped: yes)."""
    tool = next((tool for tool in tools if tool.name == name), None)
    if tool is None or not is_destructive(tool) or not sys.stdin.isatty():
        return True
    question = f"{visible(name)} is marked destructive by its server. Call it? [y/N] "
    print(question, end="", file=sys.stderr, flush=True)
    answer = await asyncio.to_thread(sys.stdin.readline)
    return answer.strip().lower() in ("y", "yes")


def unknown_arguments(tools: list[Tool], name: str, arguments: dict[str, Any]) -> list[str]:
    """Warnings for argument names the tool's input schema does not list (servers often
    ignore them silently)."""
    tool = next((tool for tool in tools if tool.name == name), None)
    properties = (tool.input_schema.get("properties") if tool else None) or {}
    unknown = [key for key in arguments if key not in properties]
    if not properties or not unknown:
        return []
    known = ", ".join(map(visible, properties))
    return [f"{visible(name)} has no argument {key!r} (it takes: {known})" for key in unknown]


def output_warnings(tools: list[Tool], name: str, result: ToolResult) -> list[str]:
    """Warnings when a result breaks the tool's output schema (or the schema is too complex
    to check it against): the SDK's own check is skipped (envs/tool_call.py)."""
    tool = next((tool for tool in tools if tool.name == name), None)
    schema = tool.output_schema if tool else None
    if not schema or result.is_error:
        return []
    from fleet_tui.forms.budget import output_note
    from fleet_tui.forms.validation import output_problems

    if (note := output_note(schema)) is not None:
        return [f"{visible(name)}: result not checked: {note}"]
    if result.structured is None:
        return [f"{visible(name)} declares an output schema but sent no structured content"]
    return [
        f"{visible(name)}: result does not match its output schema: {problem}"
        for problem in output_problems(result.structured, schema)
    ]


def print_reset(out: Output, reset: ResetResult, files: BlockFiles) -> None:
    """The observation a step acted on: the one its episode's reset gave, under a title."""
    out.out(f"observation after the reset ({reset.message}):")
    blocks = reset.result.blocks if reset.result else []
    for index, block in enumerate(blocks):
        print_block(out, index, block, files)
    if not blocks:
        out.out("(empty)")
    out.out("step result:")


def reset_json(reset: ResetResult, files: BlockFiles) -> dict[str, Any]:
    """The reset a step acted on, for `--json`: its seed, options and observation."""
    observation = result_json("<reset>", reset.result, files) if reset.result else None
    return {
        "message": reset.message,
        "seed": reset.seed,
        "options": reset.options,
        "at": reset.at,
        "observation": observation,
    }


def print_result(out: Output, result: ToolResult, files: BlockFiles) -> None:
    """The blocks in order: text (JSON pretty-printed), files for binary content."""
    for index, block in enumerate(result.blocks):
        print_block(out, index, block, files)
    if result.structured is not None and not repeats_text(result):
        out.out("structured content:")
        out.out(pretty_json(result.structured))
    if result.done is not None:
        ended = " (the episode ended; reset to start a new one)" if result.done else ""
        out.out(f"reward: {result.reward}  done: {str(result.done).lower()}{ended}")


def repeats_text(result: ToolResult) -> bool:
    """True when the structured content only repeats a text block: the same JSON, or the
    `{"result": ...}` wrapper MCP servers put around a tool's plain return value."""
    structured = result.structured
    wrapped = (
        structured.get("result") if isinstance(structured, dict) and len(structured) == 1 else None
    )
    for block in result.blocks:
        if isinstance(block, TextBlock):
            parsed = block.parsed_json()
            if (
                structured == parsed
                or block.text == wrapped
                or (parsed is not None and parsed == wrapped)
            ):
                return True
    return False
