"""Agent transcripts in the forms frameworks write, read into calls and answers (`items.py`).

`transcript_items(data)` takes a transcript's JSON (an array, JSONL lines, or an object
wrapping them) and reads it with the first form it is in: a Claude Code session, pydantic-ai's
export, Gemini contents, a LangChain dump, raw ChatCompletion objects, OpenAI Responses items,
then OpenAI chat and Anthropic messages (which may mix). One module per form.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fleet_tui.session.transcripts import (
    anthropic,
    gemini,
    langchain,
    openai_chat,
    openai_responses,
    pydantic_ai,
)
from fleet_tui.session.transcripts.items import Item, dicts

Reader = Callable[[list[dict]], Iterable[Item]]

FORMS: list[tuple[str, Callable[[list[dict]], bool], Reader]] = [
    (
        "Claude Code",
        anthropic.is_claude_code,
        lambda lines: anthropic.items(anthropic.claude_code_messages(lines)),
    ),
    ("pydantic-ai", pydantic_ai.is_pydantic_ai, pydantic_ai.items),
    ("Gemini", gemini.is_gemini, gemini.items),
    ("LangChain", langchain.is_langchain, langchain.items),
    (
        "ChatCompletion log",
        openai_chat.is_completion_log,
        lambda log: openai_chat.items(openai_chat.completion_messages(log)),
    ),
    ("OpenAI Responses", openai_responses.is_responses, openai_responses.items),
    ("OpenAI chat", openai_chat.is_chat, openai_chat.items),
    ("Anthropic", anthropic.is_anthropic, anthropic.items),
]

WRAPPERS = ("messages", "contents")
"""Keys of an object that wraps the list: chat messages, Gemini contents."""


def entries(data: Any) -> list[dict] | None:
    """The list of messages or items `data` holds (None: it holds none)."""
    if isinstance(data, dict):
        if isinstance(data.get("choices"), list):  # one ChatCompletion
            return [data]
        wrapped = next((data[key] for key in WRAPPERS if isinstance(data.get(key), list)), None)
        if wrapped is None and any(isinstance(data.get(k), list) for k in ("input", "output")):
            wrapped = dicts(data.get("input")) + dicts(data.get("output"))  # Responses
        data = wrapped
    if not isinstance(data, list) or not all(isinstance(entry, dict) for entry in data):
        return None
    responses = [e for e in data if e.get("object") == "response"]  # Response objects
    return [item for r in responses for item in dicts(r.get("output"))] if responses else data


def transcript_items(data: list[dict]) -> tuple[str, list[Item]]:
    """The name of the form `data` is in and what it holds; ("", []) when no form has calls."""
    for name, recognises, read in FORMS:
        if recognises(data):
            return name, list(read(data))
    return "", []
