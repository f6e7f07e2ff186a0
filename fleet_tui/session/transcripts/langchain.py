"""LangChain message dumps (`messages_to_dict`): `{"type": "ai", "data": {...}}` messages hold
`tool_calls` (`name`, `args`, `id`) and `invalid_tool_calls` (arguments that were not JSON),
answered by `tool` messages with the same `tool_call_id` (`status: error` is an error)
(https://python.langchain.com/api_reference/core/messages.html)."""

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

TYPES = ("ai", "human", "tool", "system", "AIMessageChunk", "ToolMessageChunk")


def is_langchain(messages: list[dict]) -> bool:
    return any(m.get("type") in TYPES and isinstance(m.get("data"), dict) for m in messages)


def items(messages: list[dict]) -> Iterator[Item]:
    for message in messages:
        data = message.get("data")
        if not isinstance(data, dict):
            continue
        if message.get("type") in ("ai", "AIMessageChunk"):
            yield TurnStart()
            for call in dicts(data.get("tool_calls")):
                yield tool_call(call.get("name"), call.get("args"), call.get("id"))
            for invalid in dicts(data.get("invalid_tool_calls")):
                refused = tool_call(invalid.get("name"), "", invalid.get("id"))
                refused.problem = f"its arguments could not be read: {invalid.get('error')}"
                yield refused
        elif message.get("type") in ("tool", "ToolMessageChunk"):
            call_id = data.get("tool_call_id")
            yield ToolAnswer(
                content_blocks(data.get("content")),
                is_error=data.get("status") == "error",
                call_id=None if call_id is None else str(call_id),
            )
