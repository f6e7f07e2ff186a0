"""pydantic-ai's message export (`ModelMessagesTypeAdapter.dump_json`): `response` messages hold
`tool-call` parts (`tool_name`, `args` as an object or JSON text, `tool_call_id`), `request`
messages the `tool-return` parts that answer them (`outcome` other than `success` is an
error) and `retry-prompt` parts (the call failed; the model is asked again)
(https://ai.pydantic.dev/message-history/)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fleet_tui.envs.base import ContentBlock, TextBlock
from fleet_tui.session.transcripts.items import (
    Item,
    ToolAnswer,
    TurnStart,
    content_blocks,
    dicts,
    image_block,
    tool_call,
)


def is_pydantic_ai(messages: list[dict]) -> bool:
    return any(
        m.get("kind") in ("request", "response") and isinstance(m.get("parts"), list)
        for m in messages
    )


def items(messages: list[dict]) -> Iterator[Item]:
    for message in messages:
        if message.get("kind") == "response":
            yield TurnStart()
        for part in dicts(message.get("parts")):
            kind = part.get("part_kind")
            call_id = part.get("tool_call_id")
            call_id = None if call_id is None else str(call_id)
            if kind == "tool-call":
                yield tool_call(part.get("tool_name"), part.get("args"), call_id)
            elif kind == "tool-return":
                failed = part.get("outcome") not in (None, "success")
                yield ToolAnswer(_blocks(part.get("content")), failed, call_id)
            elif kind == "retry-prompt" and part.get("tool_name"):
                yield ToolAnswer(_blocks(part.get("content")), True, call_id)


def _blocks(content: Any) -> list[ContentBlock]:
    """A tool's return: text, binary content (`kind: binary`, an image), or a list of them;
    a retry's validation errors (a list of objects) as their JSON."""
    parts = content if isinstance(content, list) else [content]
    if all(isinstance(part, str) or _binary(part) for part in parts):
        found = [image_block(p) if _binary(p) else TextBlock(text=p) for p in parts]
        return [block for block in found if block is not None]
    return content_blocks(content)


def _binary(part: Any) -> bool:
    return isinstance(part, dict) and part.get("kind") == "binary"
