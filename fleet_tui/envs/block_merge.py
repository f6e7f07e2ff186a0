"""Tool results bounded in content blocks, as replies are in bytes.

Each block costs memory all the way (the mcp SDK's models, our `ToolResult`, and in the app a
widget of tens of kilobytes), so a reply of 150,000 tiny text blocks (3 MB, far under the
reply cap) would take gigabytes. Past MAX_BLOCKS, runs of adjacent text blocks are merged into
one (their texts joined by newlines) as the reply is received, before the SDK reads it; the
result's `_meta` says how many were merged (MERGED_KEY). A result still over MAX_BLOCKS after
merging (other kinds of blocks) is shown up to MAX_BLOCKS, the rest counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from fleet_tui.envs.base import ContentBlock

MAX_BLOCKS = 200
"""Content blocks of one result kept as they came; past this, text blocks are merged."""

MERGED_KEY = "fleet-tui/merged-blocks"
"""In a result's `_meta`: how many of its text blocks were merged into the one before them."""


def merge_text_runs(result: dict[str, Any], limit: int = MAX_BLOCKS) -> None:
    """In a tools/call result's wire dict with over `limit` content blocks, merge runs of
    adjacent text blocks (in place) and note how many were merged in its `_meta`."""
    content = result.get("content")
    if not isinstance(content, list) or len(content) <= limit:
        return
    merged: list[Any] = []
    run: list[dict[str, Any]] = []

    def end_run() -> None:
        if len(run) == 1:
            merged.append(run[0])  # a lone text block keeps its annotations
        elif run:
            merged.append({"type": "text", "text": "\n".join(block["text"] for block in run)})
        run.clear()

    for block in content:
        if _is_text(block):
            run.append(block)
        else:
            end_run()
            merged.append(block)
    end_run()
    if len(merged) < len(content):
        given = result.get("_meta")
        meta = given if isinstance(given, dict) else {}
        result["_meta"] = {**meta, MERGED_KEY: len(content) - len(merged)}
        result["content"] = merged


def merge_reply_blocks(item: Any) -> None:
    """Merge text runs (in place) in a received message (the SDK's `SessionMessage`) when it
    answers a request with a result that has content blocks."""
    result = getattr(getattr(item, "message", None), "result", None)
    if isinstance(result, dict):
        merge_text_runs(result)


def merged_count(raw: Any) -> int:
    """How many text blocks of a result (its wire dict) were merged on receipt."""
    meta = raw.get("_meta") if isinstance(raw, dict) else None
    count = meta.get(MERGED_KEY) if isinstance(meta, dict) else None
    return count if isinstance(count, int) else 0


def block_kinds(blocks: Sequence[ContentBlock], listed: int = 10) -> str:
    """The blocks' types in order ("text, image"), or counted when more than `listed`
    ("150,000 text, 2 image")."""
    if len(blocks) <= listed:
        return ", ".join(block.type for block in blocks) or "none"
    counts = Counter(block.type for block in blocks)
    return ", ".join(f"{count:,} {kind}" for kind, count in counts.items())


def _is_text(block: Any) -> bool:
    return (
        isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    )
