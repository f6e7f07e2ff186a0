"""What a field is for, guessed from its name and schema: the fields an env's action carries
beside the real ones (OpenEnv's base Action puts `metadata` first), and strings worth a
multi-line editor (code, messages, prompts).
"""

from __future__ import annotations

from typing import Any

SIDE_FIELDS = frozenset({"metadata", "_meta"})
"""Optional fields that carry extras, not the action: shown last, folded."""

MULTILINE_NAMES = ("code", "message", "prompt", "text", "content", "body", "script", "source")
"""String fields of the arguments themselves (not of nested objects or list items, such as a
computer action's `text`) named so, or ending in `_<name>`, get a multi-line editor."""
MULTILINE_FORMATS = frozenset({"textarea", "multiline", "markdown", "code"})
LONG_STRING = 200
"""Strings allowed to be longer than this (maxLength) get a multi-line editor."""


def is_side_field(key: Any, required: bool) -> bool:
    """An optional extras field (`metadata`), shown after the others and folded."""
    return key in SIDE_FIELDS and not required


def side_fields_last(properties: dict[str, Any], required: set[str]) -> dict[str, Any]:
    """`properties` in their order, optional extras fields (`metadata`) moved to the end."""
    side = [key for key in properties if is_side_field(key, key in required)]
    main = [key for key in properties if key not in side]
    return {key: properties[key] for key in [*main, *side]}


def wants_multiline(key: Any, schema: Any, *, top_level: bool) -> bool:
    """Whether a string field is better edited over several lines: its name says code, a
    message, a prompt or text (for `top_level` fields); its schema gives a media type
    (`contentMediaType`), a text format, a default of several lines, or room for long text."""
    if not isinstance(schema, dict):
        return False
    name = key.lower() if isinstance(key, str) else ""
    named = top_level and any(name == word or name.endswith(f"_{word}") for word in MULTILINE_NAMES)
    max_length = schema.get("maxLength")
    default = schema.get("default")
    return (
        named
        or "contentMediaType" in schema
        or schema.get("format") in MULTILINE_FORMATS
        or (isinstance(default, str) and "\n" in default)
        or (isinstance(max_length, int) and max_length > LONG_STRING)
    )
