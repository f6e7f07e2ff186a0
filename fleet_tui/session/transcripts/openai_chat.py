"""OpenAI chat completions: assistant messages' `tool_calls` (`function.name`, `arguments` as
JSON text), answered by `tool` messages with the same `tool_call_id`
(https://platform.openai.com/docs/api-reference/chat/create). A log of raw `ChatCompletion`
objects (`choices[].message`) holds only the assistant's side: its calls have no answers."""

from __future__ import annotations

from collections.abc import Iterator

from fleet_tui.session.transcripts.items import (
    Item,
    ToolAnswer,
    TurnStart,
    content_blocks,
    dicts,
    tool_call,
)


def is_completion_log(messages: list[dict]) -> bool:
    return any(isinstance(m.get("choices"), list) for m in messages)


def completion_messages(completions: list[dict]) -> list[dict]:
    """Each completion's first choice's message (the one the agent went on with)."""
    messages = []
    for completion in completions:
        choices = dicts(completion.get("choices"))
        if choices and isinstance(message := choices[0].get("message"), dict):
            messages.append(message)
    return messages


def is_chat(messages: list[dict]) -> bool:
    return any("tool_calls" in m or m.get("role") == "tool" for m in messages)


def items(messages: list[dict]) -> Iterator[Item]:
    for message in messages:
        if message.get("role") == "assistant":
            yield TurnStart()
        for call in dicts(message.get("tool_calls")):
            function = call.get("function")
            function = function if isinstance(function, dict) else {}
            yield tool_call(function.get("name"), function.get("arguments"), call.get("id"))
        if message.get("role") == "tool":
            blocks = content_blocks(message.get("content"))
            yield ToolAnswer(blocks, call_id=_id(message.get("tool_call_id")))


def _id(value: object) -> str | None:
    return None if value is None else str(value)
