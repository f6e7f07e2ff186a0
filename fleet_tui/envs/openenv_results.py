"""Turn OpenEnv observations into `ToolResult`s.

A step answer is `{"observation": {...}, "reward": r, "done": d}`. For a `call_tool` step the
observation carries `result` in one of two shapes, or an `error`:

- an MCP CallToolResult dump (`content`, `structured_content`/`structuredContent`,
  `is_error`/`isError`, `data`), as openenv-core's `MCPEnvironment` sends;
- ORS blocks (`{"blocks": [{"type": "text", ...}, {"type": "image", "data", "mimeType"}],
  "metadata": {...}}`), as envs imported from ORS/OpenReward send;
- `error: {"error_type", "message"}` when the call failed.

Anything else (a bare string, number or object) is kept as text and structured data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from fleet_tui.envs.base import ContentBlock, TextBlock, ToolResult
from fleet_tui.envs.results import content_block_from_mcp, error_result, tool_result_from_mcp


def tool_result_from_step(
    data: Mapping[str, Any], *, endpoint: str = "", latency_s: float = 0.0, size_bytes: int = 0
) -> ToolResult:
    """The ToolResult of one `call_tool` step answer, with its reward and done flag."""
    observation = data.get("observation") or {}
    result = _result_from_observation(observation)
    return result.model_copy(
        update={
            "reward": _reward(data, observation),
            "done": bool(data.get("done", observation.get("done", False))),
            "endpoint": endpoint,
            "latency_s": latency_s,
            "size_bytes": size_bytes or result.size_bytes,
            "raw": dict(data),
        }
    )


def tool_result_from_observation(data: Mapping[str, Any], *, endpoint: str = "") -> ToolResult:
    """A whole observation (after a reset, or a step of an env's own action type): its prompt
    as text when it has one, else its JSON."""
    observation = dict(data.get("observation") or {})
    metadata = data.get("metadata") or observation.get("metadata") or {}
    prompt = metadata.get("prompt") if isinstance(metadata, Mapping) else None
    if isinstance(prompt, list):
        blocks = [
            block
            for item in prompt
            if isinstance(item, Mapping)
            for block in (
                _message_blocks(item) if "role" in item else [content_block_from_mcp(item)]
            )
        ]
    elif isinstance(prompt, str):
        blocks = [TextBlock(text=prompt)]
    else:
        shown = {key: value for key, value in observation.items() if value not in (None, {}, [])}
        blocks = [TextBlock(text=json.dumps(shown, indent=2, default=str))] if shown else []
    structured = {**observation, "metadata": metadata} if metadata else observation or None
    return ToolResult(
        blocks=blocks,
        structured=structured,
        reward=_reward(data, observation),
        done=bool(data.get("done", False)),
        endpoint=endpoint,
        raw=dict(data),
    )


def error_of(answer: Mapping[str, Any]) -> tuple[str, str]:
    """(message, code) of an `error` answer, or of any answer we did not expect. A validation
    error's details (`errors: [{loc, msg, type}]`) are part of the message."""
    data = answer.get("data")
    if answer.get("type") == "error" and isinstance(data, Mapping):
        message = str(data.get("message") or data)
        details = validation_details(data)
        if details:
            message = f"{message}: {'; '.join(details)}"
        return message, str(data.get("code") or "error").lower()
    return f"unexpected answer of type {answer.get('type')!r}", "protocol_error"


def validation_details(data: Mapping[str, Any]) -> list[str]:
    """`loc: msg (type)` for each of an error answer's `errors` (pydantic's validation errors)."""
    errors = data.get("errors")
    if not isinstance(errors, list):
        return []
    lines = []
    for error in errors:
        if not isinstance(error, Mapping):
            lines.append(str(error))
            continue
        loc = error.get("loc")
        where = ".".join(map(str, loc)) if isinstance(loc, list | tuple) else str(loc or "")
        kind = f" ({error['type']})" if error.get("type") else ""
        lines.append(f"{where or 'action'}: {error.get('msg', 'invalid')}{kind}")
    return lines


def rejected_result(answer: Mapping[str, Any], *, endpoint: str, latency_s: float) -> ToolResult:
    """An `error` answer to a step: the env refused the action and took no step. The server's
    validation errors stay in `structured` (`errors`)."""
    message, code = error_of(answer)
    data = answer.get("data")
    errors = data.get("errors") if isinstance(data, Mapping) else None
    result = error_result(message, code, endpoint=endpoint, latency_s=latency_s, raw=dict(answer))
    structured = {"errors": errors} if isinstance(errors, list) else None
    return result.model_copy(update={"rejected": True, "structured": structured})


def prompt_text(prompt: Any) -> str:
    """A prompt as plain text: a string as it is; chat messages as their text, one paragraph
    each, other roles than the user's named (as `_message_blocks` shows them); else ""."""
    if isinstance(prompt, str):
        return prompt
    if not isinstance(prompt, list):
        return ""
    messages = [item for item in prompt if isinstance(item, Mapping) and "role" in item]
    return "\n\n".join(
        block.text
        for message in messages
        for block in _message_blocks(message)
        if isinstance(block, TextBlock) and block.text
    )


def _message_blocks(message: Mapping[str, Any]) -> list[ContentBlock]:
    """A chat message of a prompt (a Verifiers env's, say) as blocks: its text, named by its
    role unless it is the user's; content parts are content blocks."""
    role, content = str(message.get("role")), message.get("content")
    said = "" if role == "user" else f"{role}: "
    if isinstance(content, list):
        parts = [content_block_from_mcp(part) for part in content if isinstance(part, Mapping)]
        return [TextBlock(text=said.rstrip()), *parts] if said else parts
    return [TextBlock(text=f"{said}{'' if content is None else content}")]


def _result_from_observation(observation: Mapping[str, Any]) -> ToolResult:
    error = observation.get("error")
    if error:
        if isinstance(error, Mapping):
            kind = str(error.get("error_type") or error.get("type") or "error")
            message = str(error.get("message") or error)
        else:
            kind, message = "error", str(error)
        return error_result(message, kind)
    result = observation.get("result")
    if isinstance(result, Mapping) and "content" in result:
        return tool_result_from_mcp(result)
    if isinstance(result, Mapping) and isinstance(result.get("blocks"), list):
        metadata = result.get("metadata")
        return ToolResult(
            blocks=[content_block_from_mcp(block) for block in result["blocks"]],
            structured=metadata or None,
        )
    return _plain_result(result)


def _plain_result(result: Any) -> ToolResult:
    if result is None:
        return ToolResult()
    if isinstance(result, str):
        return ToolResult(blocks=[TextBlock(text=result)])
    text = json.dumps(result, indent=2, default=str)
    structured = result if isinstance(result, Mapping | list) else None
    return ToolResult(blocks=[TextBlock(text=text)], structured=structured)


def _reward(data: Mapping[str, Any], observation: Mapping[str, Any]) -> float | None:
    reward = data.get("reward", observation.get("reward"))
    if isinstance(reward, bool):
        return float(reward)
    return float(reward) if isinstance(reward, int | float) else None
