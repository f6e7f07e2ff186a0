"""An agent's transcript read as a session, so `replay` can step through it on a fresh env.

Two forms are read, as a JSON array of messages (or an object with `messages`) or as JSONL (one
message per line): OpenAI chat completions (assistant `tool_calls`, then `tool` messages with
the same `tool_call_id`) and Anthropic Messages (`tool_use` blocks, then `tool_result` blocks
with the same `tool_use_id`). Each call becomes a call event, each answer a result event
holding what the model saw (text and images). Names an MCP client prefixed
(`mcp__server__tool`) are mapped onto the env's tools with `map_tool_names`.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fleet_tui.envs.base import EnvError, ImageBlock, TextBlock
from fleet_tui.session.events import CallEvent, RecordedResult, ResultEvent, SessionStart
from fleet_tui.session.reader import Session

MAX_BYTES = 100_000_000
MAX_CALLS = 10_000


def _messages(path: Path) -> list[Any]:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise EnvError(f"{path}: {size} bytes; a transcript may hold {MAX_BYTES}")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise EnvError(f"cannot read the transcript {path}: {error}") from None
    try:
        data = json.loads(text)
    except ValueError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError as error:
            raise EnvError(f"{path} is neither JSON nor JSONL: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("messages"), list):
        data = data["messages"]
    if not isinstance(data, list) or not all(isinstance(m, dict) for m in data):
        raise EnvError(f"{path}: expected a list of chat messages")
    return data


def _arguments(raw: Any, name: str) -> dict[str, Any]:
    if isinstance(raw, str):
        try:
            raw = json.loads(raw or "{}")
        except ValueError:
            raise EnvError(f"the arguments of a call to {name!r} are not JSON") from None
    if not isinstance(raw, dict):
        raise EnvError(f"the arguments of a call to {name!r} are not a JSON object")
    return raw


def _blocks(content: Any) -> list[Any]:
    """A tool answer's content (a string, or OpenAI / Anthropic content parts) as blocks."""
    if isinstance(content, str):
        return [TextBlock(text=content)]
    blocks: list[Any] = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text":
            blocks.append(TextBlock(text=str(part.get("text", ""))))
        elif part.get("type") == "image" and isinstance(source := part.get("source"), dict):
            try:
                data = base64.b64decode(source.get("data", ""), validate=True)
            except (binascii.Error, ValueError, TypeError):
                continue
            mime_type = str(source.get("media_type", "image/png"))
            blocks.append(ImageBlock(mime_type=mime_type, data=data))
    return blocks


def _dicts(value: Any) -> list[dict]:
    """The objects of a list (anything else holds none)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _calls_and_answers(messages: list[Any]) -> tuple[list[tuple[str, str, dict]], dict]:
    """(id, tool, arguments) per call in order, and id -> (blocks, is_error) per answer."""
    calls: list[tuple[str, str, dict]] = []
    answers: dict[str, tuple[list[Any], bool]] = {}
    for message in messages:
        for call in _dicts(message.get("tool_calls")):  # OpenAI
            function = call.get("function")
            function = function if isinstance(function, dict) else {}
            name = str(function.get("name", ""))
            calls.append((str(call.get("id")), name, _arguments(function.get("arguments"), name)))
        if message.get("role") == "tool":
            answers[str(message.get("tool_call_id"))] = (_blocks(message.get("content")), False)
        for block in _dicts(message.get("content")):  # Anthropic
            if block.get("type") == "tool_use":
                name = str(block.get("name", ""))
                calls.append((str(block.get("id")), name, _arguments(block.get("input"), name)))
            elif block.get("type") == "tool_result":
                error = bool(block.get("is_error"))
                answers[str(block.get("tool_use_id"))] = (_blocks(block.get("content")), error)
    return calls, answers


def load_trajectory(path: str | Path) -> Session:
    """The transcript at `path` as a session; EnvError (exit 2) in plain words when it holds
    no tool calls or is not a transcript."""
    path = Path(path)
    calls, answers = _calls_and_answers(_messages(path))
    if not calls:
        raise EnvError(f"{path}: no tool calls (OpenAI tool_calls or Anthropic tool_use)")
    if len(calls) > MAX_CALLS:
        raise EnvError(f"{path}: {len(calls)} tool calls; a transcript may hold {MAX_CALLS}")
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    events: list[Any] = [SessionStart(seq=1, at=now)]
    for call_id, name, arguments in calls:
        call = CallEvent(seq=len(events) + 1, at=now, tool=name, arguments=arguments)
        events.append(call)
        if call_id in answers:
            blocks, is_error = answers[call_id]
            # built, not validated: a transcript's images are held inline, not beside a file
            result = RecordedResult.model_construct(blocks=blocks, is_error=is_error)
            answer = ResultEvent(seq=len(events) + 1, at=now, call_seq=call.seq, result=result)
            events.append(answer)
    return Session(path=path, events=events)


def map_tool_names(session: Session, tools: list[str]) -> None:
    """Calls to a name the env lacks whose last `__` part is one of `tools` (an MCP client's
    `mcp__server__tool`) are made to that tool."""
    known = set(tools)
    for event in session.events:
        if isinstance(event, CallEvent) and event.tool not in known:
            short = event.tool.rsplit("__", 1)[-1]
            if short in known:
                event.tool = short
