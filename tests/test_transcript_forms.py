"""`fleet-tui replay --trajectory FILE TARGET` reads the transcript forms agent frameworks
write, each written here by the framework's own serializer or SDK types (OpenAI Responses and
chat, raw ChatCompletion logs, Anthropic Messages, pydantic-ai's export, Gemini contents,
LangChain dumps) or, for Claude Code's session files, by hand as documented; replayed on real
MCP servers. Calls are matched to answers by id within a turn and by position; one call's
broken arguments are reported on that step; a call without an answer is "no record"; a
screenshot a framework dropped or moved is not a divergence."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from anthropic.types import Message, ToolUseBlock, Usage
from google.genai import types as genai
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict
from openai.types.chat import ChatCompletion
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage
from PIL import Image
from pydantic_ai import ModelMessagesTypeAdapter
from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from fleet_tui.cli import main
from tests.fixtures.mcp_servers import png_bytes, tiny_png


def replay(capsys, transcript: Path, url: str, *more: str) -> tuple[int, str]:
    code = main(["replay", "--trajectory", str(transcript), "--mcp", url, *more])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode()


def function_call(call_id: str, name: str, arguments: str) -> dict:
    item = ResponseFunctionToolCall(
        type="function_call", call_id=call_id, name=name, arguments=arguments, id=f"fc_{call_id}"
    )
    return item.model_dump(mode="json", exclude_none=True)


def test_openai_responses_items_with_parallel_calls_answered_out_of_order(
    mcp_alpha, tmp_path, capsys
):
    """openai-agents' `to_input_list()`: a flat list of Responses input and output items."""
    final = ResponseOutputMessage.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "5 and hi", "annotations": []}],
        }
    )
    items = [
        {"role": "user", "content": "Echo hi, and add 2 and 3."},
        function_call("call_a", "add", '{"a": 2, "b": 3}'),
        function_call("call_b", "echo", '{"text": "hi"}'),
        {"type": "function_call_output", "call_id": "call_b", "output": "hi"},
        {"type": "function_call_output", "call_id": "call_a", "output": "5"},
        final.model_dump(mode="json", exclude_none=True),
    ]
    code, out = replay(capsys, write(tmp_path, "responses.json", items), mcp_alpha.url)
    assert code == 0, out
    assert "add: match" in out and "echo: match" in out and "2/2 steps match" in out


def test_a_responses_object_with_input_and_output(mcp_alpha, tmp_path, capsys):
    transcript = {
        "input": [
            {"role": "user", "content": "Echo one."},
            function_call("c1", "echo", '{"text": "one"}'),
            {"type": "function_call_output", "call_id": "c1", "output": "one"},
        ],
        "output": [function_call("c2", "echo", '{"text": "two"}')],
    }
    code, out = replay(capsys, write(tmp_path, "response.json", transcript), mcp_alpha.url)
    assert code == 0, out
    assert "step   2 echo: match" in out
    assert "step   4 echo: no record" in out
    assert "1/2 steps match" in out and "1 with no record" in out


def test_a_raw_chat_completion_log_holds_calls_without_answers(mcp_alpha, tmp_path, capsys):
    """A log of ChatCompletion objects holds only the model's side: every step is no record
    (made, nothing to compare with), and no step is a match."""
    completions = [
        ChatCompletion.model_validate(
            {
                "id": f"chatcmpl-{n}",
                "object": "chat.completion",
                "created": 1,
                "model": "gpt-4.1",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "tool_calls",
                        "message": {
                            "role": "assistant",
                            "content": None,
                            "tool_calls": [
                                {
                                    "id": "call_1",
                                    "type": "function",
                                    "function": {"name": "echo", "arguments": arguments},
                                }
                            ],
                        },
                    }
                ],
            }
        ).model_dump(mode="json")
        for n, arguments in enumerate(['{"text": "a"}', '{"text": "b"}'])
    ]
    path = write(tmp_path, "log.jsonl", "\n".join(json.dumps(c) for c in completions))
    code, out = replay(capsys, path, mcp_alpha.url)
    assert code == 0, out
    assert out.count("echo: no record") == 2, out
    assert "0/2 steps match" in out and "2 with no record" in out


def test_openai_chat_ids_reused_across_turns_make_no_false_divergence(mcp_alpha, tmp_path, capsys):
    def turn(text: str) -> list[dict]:
        call = {"id": "call_0", "type": "function"}
        call["function"] = {"name": "echo", "arguments": json.dumps({"text": text})}
        return [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_0", "content": text},
        ]

    messages = [*turn("one"), *turn("two"), *turn("three")]
    code, out = replay(capsys, write(tmp_path, "chat.json", messages), mcp_alpha.url)
    assert code == 0, out
    assert "3/3 steps match" in out


def test_pydantic_ai_export_with_broken_arguments_on_one_step(mcp_alpha, tmp_path, capsys):
    """pydantic-ai numbers its calls afresh each turn here (`call_0`); the second call's
    arguments are cut off: that step says so, the others replay."""
    messages = [
        ModelRequest(parts=[UserPromptPart(content="Echo, then add.")]),
        ModelResponse(parts=[ToolCallPart("echo", '{"text": "hi"}', tool_call_id="call_0")]),
        ModelRequest(parts=[ToolReturnPart("echo", "hi", tool_call_id="call_0")]),
        ModelResponse(parts=[ToolCallPart("add", '{"a": 2, "b"', tool_call_id="call_0")]),
        ModelRequest(parts=[ToolReturnPart("add", "bad", tool_call_id="call_0")]),
        ModelResponse(parts=[ToolCallPart("add", {"a": 2, "b": 3}, tool_call_id="call_0")]),
        ModelRequest(parts=[ToolReturnPart("add", 5, tool_call_id="call_0")]),
    ]
    path = tmp_path / "pydantic_ai.json"
    path.write_bytes(ModelMessagesTypeAdapter.dump_json(messages))
    code, out = replay(capsys, path, mcp_alpha.url)
    assert code == 1, out
    lines = [line for line in out.splitlines() if line.startswith("step")]
    assert "echo: match" in lines[0]
    assert "add: DIVERGED (not made: its arguments are not JSON" in lines[1]
    assert "add: match" in lines[2]
    assert "2/3 steps match" in out


def test_gemini_contents_matched_by_name_and_position(mcp_alpha, tmp_path, capsys):
    contents = [
        genai.Content(role="user", parts=[genai.Part.from_text(text="Echo hi and add.")]),
        genai.Content(
            role="model",
            parts=[
                genai.Part.from_function_call(name="echo", args={"text": "hi"}),
                genai.Part.from_function_call(name="add", args={"a": 1, "b": 2}),
            ],
        ),
        genai.Content(
            role="user",
            parts=[
                genai.Part.from_function_response(name="add", response={"output": "3"}),
                genai.Part.from_function_response(name="echo", response={"output": "hi"}),
            ],
        ),
    ]
    for by_alias in (True, False):  # the API's camelCase and the SDK's snake_case dumps
        dumped = [c.model_dump(mode="json", exclude_none=True, by_alias=by_alias) for c in contents]
        path = write(tmp_path, "gemini.json", {"contents": dumped})
        code, out = replay(capsys, path, mcp_alpha.url)
        assert code == 0, out
        assert "echo: match" in out and "add: match" in out and "2/2 steps match" in out


def test_a_langchain_dump_with_an_invalid_call(mcp_alpha, tmp_path, capsys):
    messages = [
        HumanMessage("Echo hi."),
        AIMessage(content="", tool_calls=[{"name": "echo", "args": {"text": "hi"}, "id": "c1"}]),
        ToolMessage(content="hi", tool_call_id="c1"),
        AIMessage(
            content="",
            invalid_tool_calls=[{"name": "add", "args": "{a: 1", "id": "c2", "error": "bad JSON"}],
        ),
        ToolMessage(content="Error: bad JSON", tool_call_id="c2", status="error"),
    ]
    path = write(tmp_path, "langchain.json", messages_to_dict(messages))
    code, out = replay(capsys, path, mcp_alpha.url)
    assert code == 1, out
    assert "echo: match" in out
    assert "add: DIVERGED (not made: its arguments could not be read: bad JSON)" in out


def test_a_claude_code_session_file(mcp_alpha, tmp_path, capsys):
    """Hand-written, as Claude Code writes `~/.claude/projects/*/<session>.jsonl`: one event
    per line (`type` user / assistant / summary), the API message under `message`, one
    assistant line per content block (https://docs.anthropic.com/en/docs/claude-code/sdk)."""

    def line(kind: str, content: list, message_id: str = "") -> str:
        message = {"role": kind, "content": content} | ({"id": message_id} if message_id else {})
        return json.dumps({"type": kind, "sessionId": "s1", "uuid": "u", "message": message})

    use = {"type": "tool_use", "id": "toolu_1", "name": "mcp__fleet-tui__echo"}
    lines = [
        json.dumps({"type": "summary", "summary": "Echo things", "leafUuid": "u"}),
        line("user", [{"type": "text", "text": "Echo hi."}]),
        line("assistant", [{"type": "text", "text": "Echoing."}], "msg_1"),
        line("assistant", [use | {"input": {"text": "hi"}}], "msg_1"),
        line("user", [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "hi"}]),
    ]
    code, out = replay(capsys, write(tmp_path, "session.jsonl", "\n".join(lines)), mcp_alpha.url)
    assert code == 0, out
    assert "echo: match" in out and "1/1 steps match" in out


def anthropic_call(call_id: str, name: str, arguments: dict) -> dict:
    message = Message(
        id=f"msg_{call_id}",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[ToolUseBlock(type="tool_use", id=call_id, name=name, input=arguments)],
        stop_reason="tool_use",
        stop_sequence=None,
        usage=Usage(input_tokens=1, output_tokens=1),
    )
    return message.model_dump(mode="json", exclude_none=True)


def image_result(call_id: str, png: bytes) -> dict:
    image = {"type": "base64", "media_type": "image/png", "data": base64.b64encode(png).decode()}
    return {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": call_id,
                "content": [{"type": "image", "source": image}],
            }
        ],
    }


def test_screenshots_are_judged_by_the_images_the_transcript_holds(mcp_beta, tmp_path, capsys):
    """An answer made only of the image is compared pixel for pixel (a wrong picture is a
    divergence); a chat answer whose image the framework moved into a user message of its own
    is judged by its text, the env's image shown, not compared."""
    blue = png_bytes(Image.new("RGB", (4, 3), (0, 0, 255)))
    moved = [
        {"role": "user", "content": [{"type": "text", "text": "the picture"}]},
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c3", "type": "function", "function": {"name": "picture", "arguments": ""}}
            ],
        },
        {"role": "tool", "tool_call_id": "c3", "content": "a red picture"},
        {
            "role": "user",
            "content": [{"type": "image_url", "image_url": {"url": data_url(tiny_png())}}],
        },
    ]
    messages = [
        anthropic_call("toolu_1", "picture", {}),
        image_result("toolu_1", tiny_png()),
        anthropic_call("toolu_2", "picture", {}),
        image_result("toolu_2", blue),
    ]
    code, out = replay(capsys, write(tmp_path, "pictures.json", messages), mcp_beta.url)
    assert code == 1, out
    assert "step   2 picture: match" in out and "step   4 picture: DIVERGED" in out
    assert "image block 1: pixels differ" in out
    code, out = replay(capsys, write(tmp_path, "moved.json", moved), mcp_beta.url)
    assert code == 0, out
    assert "picture: match" in out


def test_responses_computer_calls_replay_on_the_computer_use_env(tmp_path, capsys):
    """`computer_call` actions become calls to the env's `computer` tool; their screenshots
    are kept by OpenAI (a `file_id`), so each step is judged by the env's own screenshot."""
    screenshot = {"type": "computer_screenshot", "file_id": "file_1"}

    def computer(call_id: str, action: dict) -> list[dict]:
        call = {"type": "computer_call", "id": f"cu_{call_id}", "call_id": call_id}
        output = {"type": "computer_call_output", "call_id": call_id, "output": screenshot}
        return [
            call | {"action": action, "status": "completed", "pending_safety_checks": []},
            output,
        ]

    items = [
        *computer("c1", {"type": "screenshot"}),
        *computer("c2", {"type": "click", "button": "left", "x": 300, "y": 140}),
        *computer("c3", {"type": "type", "text": "tea"}),
        *computer("c4", {"type": "keypress", "keys": ["ENTER"]}),
    ]
    path = write(tmp_path, "computer.json", items)
    code = main(["replay", "--trajectory", str(path), "--local", "desktop-todo"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("computer: match") == 4 and "4/4 steps match" in out


@pytest.mark.parametrize("form", ["chat", "json-lines"])
def test_files_in_no_known_form_are_refused_in_plain_words(mcp_alpha, tmp_path, capsys, form):
    text = json.dumps({"rows": [1, 2]}) if form == "chat" else '{"a": 1}\n7\n'
    code, out = replay(capsys, write(tmp_path, "other.json", text), mcp_alpha.url)
    assert code == 2
    assert "expected a list of messages (OpenAI chat or Responses" in out
