"""An agent's transcript read as a session, so `replay` can step through it on a fresh env.

A transcript is a JSON array (or an object wrapping one) or JSONL, in any form
`session/transcripts/` reads: OpenAI chat or Responses, raw ChatCompletion logs, Anthropic
Messages, pydantic-ai's export, Claude Code sessions, Gemini contents, LangChain dumps. Each call
becomes a call event, each answer (`transcripts.pairing`) a result event holding what the model
saw (text and images). A call whose arguments cannot be read stays a step, with its problem,
and is not made. Names an MCP client prefixed (`mcp__server__tool`) are mapped onto the env's
tools with `map_tool_names`.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fleet_tui.envs.base import EnvError
from fleet_tui.session.events import CallEvent, RecordedResult, ResultEvent, SessionStart
from fleet_tui.session.reader import Session
from fleet_tui.session.transcripts import entries, transcript_items
from fleet_tui.session.transcripts.pairing import pair

MAX_BYTES = 100_000_000
MAX_CALLS = 10_000
FORMS_HINT = (
    "OpenAI chat or Responses, ChatCompletion logs, Anthropic, pydantic-ai, Claude Code, "
    "Gemini or LangChain messages"
)


class TranscriptCall(CallEvent):
    """A transcript's call; `problem` says why it cannot be made (broken arguments)."""

    problem: str | None = None


def _entries(path: Path) -> list[dict]:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise EnvError(f"{path}: {size} bytes; a transcript may hold {MAX_BYTES}")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise EnvError(f"cannot read the transcript {path}: {error}") from None
    try:
        data: Any = json.loads(text)
    except ValueError:
        try:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError as error:
            raise EnvError(f"{path} is neither JSON nor JSONL: {error}") from None
    found = entries(data)
    if found is None:
        raise EnvError(f"{path}: expected a list of messages ({FORMS_HINT})")
    return found


def load_trajectory(path: str | Path) -> Session:
    """The transcript at `path` as a session; EnvError (exit 2) in plain words when it holds
    no tool calls or is not a transcript."""
    path = Path(path)
    _form, items = transcript_items(_entries(path))
    calls = pair(items)
    if not calls:
        raise EnvError(f"{path}: no tool calls in any form read ({FORMS_HINT})")
    if len(calls) > MAX_CALLS:
        raise EnvError(f"{path}: {len(calls)} tool calls; a transcript may hold {MAX_CALLS}")
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    events: list[Any] = [SessionStart(seq=1, at=now)]
    for call, answer in calls:
        seq = len(events) + 1
        events.append(
            TranscriptCall(
                seq=seq, at=now, tool=call.tool, arguments=call.arguments, problem=call.problem
            )
        )
        if answer is not None:
            # built, not validated: a transcript's images are held inline, not beside a file
            blocks: list[Any] = list(answer.blocks)
            result = RecordedResult.model_construct(blocks=blocks, is_error=answer.is_error)
            events.append(ResultEvent(seq=seq + 1, at=now, call_seq=seq, result=result))
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


def call_problem(call: CallEvent) -> str | None:
    """Why a transcript's call cannot be made as written (None: it can)."""
    return call.problem if isinstance(call, TranscriptCall) else None
