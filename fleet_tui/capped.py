"""Output from verifier code, kept to a size a person can read and a file can hold."""

from __future__ import annotations

import json
from typing import Any

OUTPUT_LIMIT = 1_000_000
"""Bytes of a verifier's output (or of its result's JSON) that are kept; the rest is cut."""


def cut_note(count: int) -> str:
    """The line that stands where `count` bytes were cut."""
    return f"\n… {count} bytes cut\n"


def cap_text(text: str, limit: int = OUTPUT_LIMIT) -> str:
    """`text` cut after `limit` UTF-8 bytes, with a note saying how many bytes went."""
    data = text.encode("utf-8", errors="replace")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", errors="ignore") + cut_note(len(data) - limit)


def result_value(value: Any, limit: int = OUTPUT_LIMIT) -> Any:
    """A verifier's return value as JSON-safe data: its repr() when it is not JSON, and its
    JSON text cut to `limit` when that is longer."""
    try:
        encoded = json.dumps(value)
    except (TypeError, ValueError):
        return cap_text(repr(value), limit)
    return value if len(encoded) <= limit else cap_text(encoded, limit)
