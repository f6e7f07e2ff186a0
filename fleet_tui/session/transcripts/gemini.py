"""Gemini `contents` (google-genai): `model` contents hold `functionCall` parts (`name`, `args`,
an optional `id`), the next `user` content the `functionResponse` parts that answer them, by
`id` or in order (https://ai.google.dev/gemini-api/docs/function-calling). The SDK's
`model_dump()` spells them `function_call` / `function_response`: both are read. A response's
`output` or `result` is its text; an `error` key makes it an error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fleet_tui.envs.base import ContentBlock
from fleet_tui.session.transcripts.items import (
    Item,
    ToolAnswer,
    TurnStart,
    content_blocks,
    dicts,
    tool_call,
)


def _field(part: dict, camel: str, snake: str) -> dict | None:
    value = part.get(camel, part.get(snake))
    return value if isinstance(value, dict) else None


def is_gemini(contents: list[dict]) -> bool:
    return any(
        _field(part, "functionCall", "function_call")
        or _field(part, "functionResponse", "function_response")
        for content in contents
        for part in dicts(content.get("parts"))
    )


def items(contents: list[dict]) -> Iterator[Item]:
    for content in contents:
        if content.get("role") == "model":
            yield TurnStart()
        for part in dicts(content.get("parts")):
            if (call := _field(part, "functionCall", "function_call")) is not None:
                yield tool_call(call.get("name"), call.get("args"), call.get("id"))
            elif (answer := _field(part, "functionResponse", "function_response")) is not None:
                response = answer.get("response")
                call_id = answer.get("id")
                yield ToolAnswer(
                    _blocks(response),
                    is_error=isinstance(response, dict) and "error" in response,
                    call_id=None if call_id is None else str(call_id),
                    tool=str(answer.get("name") or "") or None,
                )


def _blocks(response: Any) -> list[ContentBlock]:
    if isinstance(response, dict) and len(response) == 1:
        (value,) = response.values()
        if next(iter(response)) in ("output", "result", "error"):
            return content_blocks(value)
    return content_blocks(response)
