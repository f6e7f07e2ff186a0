"""Anthropic Messages: `tool_use` blocks (the `computer` tool among them) in assistant messages,
answered by `tool_result` blocks with the same `tool_use_id`
(https://docs.anthropic.com/en/docs/build-with-claude/tool-use). Claude Code's session files
hold the same messages, one JSON line per event under `message`
(https://docs.anthropic.com/en/docs/claude-code/sdk: `type` user / assistant, `message`)."""

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

CLAUDE_CODE_EVENTS = ("user", "assistant")


def is_claude_code(lines: list[dict]) -> bool:
    return any(
        line.get("type") in CLAUDE_CODE_EVENTS and isinstance(line.get("message"), dict)
        for line in lines
    )


def claude_code_messages(lines: list[dict]) -> list[dict]:
    """The messages of a Claude Code session's user and assistant lines."""
    return [
        line["message"]
        for line in lines
        if line.get("type") in CLAUDE_CODE_EVENTS and isinstance(line.get("message"), dict)
    ]


def is_anthropic(messages: list[dict]) -> bool:
    return any(
        block.get("type") in ("tool_use", "tool_result")
        for message in messages
        for block in dicts(message.get("content"))
    )


def items(messages: list[dict]) -> Iterator[Item]:
    for message in messages:
        if message.get("role") == "assistant":
            yield TurnStart()
        for block in dicts(message.get("content")):
            if block.get("type") == "tool_use":
                yield tool_call(block.get("name"), block.get("input"), block.get("id"))
            elif block.get("type") == "tool_result":
                call_id = block.get("tool_use_id")
                yield ToolAnswer(
                    content_blocks(block.get("content")),
                    is_error=bool(block.get("is_error")),
                    call_id=None if call_id is None else str(call_id),
                )
