"""What a listed tool's annotations and `execution.taskSupport` tell a person, in words and
one-character marks, for the tool list, the form header and `fleet-tui tools`; and a content
block's annotations (audience, priority) in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the env's models: the app's first frame draws without them
    from fleet_tui.envs.base import Tool


HINTS = (
    ("readOnlyHint", True, "read-only"),
    ("destructiveHint", True, "destructive"),
    ("idempotentHint", True, "idempotent"),
    ("openWorldHint", True, "open world"),
    ("openWorldHint", False, "closed world"),
)


def hint_words(tool: Tool) -> list[str]:
    """The hints the server set, as words ("read-only", "destructive", ...)."""
    annotations = tool.annotations or {}
    words = [word for key, value, word in HINTS if annotations.get(key) is value]
    if tool.task_support == "required":
        words.append("task only")
    return words


def display_title(tool: Tool) -> str | None:
    """The tool's human title: its own, else the one in its annotations."""
    title = tool.title or (tool.annotations or {}).get("title")
    return str(title) if title else None


def is_destructive(tool: Tool) -> bool:
    """The server says the tool may destroy things (`destructiveHint: true`)."""
    return (tool.annotations or {}).get("destructiveHint") is True


def tool_mark(tool: Tool) -> str:
    """One character before the tool's name: `!` destructive, `T` task only, else nothing."""
    if is_destructive(tool):
        return "!"
    if tool.task_support == "required":
        return "T"
    return ""


def annotation_note(annotations: dict[str, Any] | None) -> str | None:
    """A content block's annotations in words ("for user; priority 0.9"), or None."""
    if not annotations:
        return None
    parts = []
    audience = annotations.get("audience")
    if isinstance(audience, list) and audience:
        parts.append("for " + ", ".join(map(str, audience)))
    if annotations.get("priority") is not None:
        parts.append(f"priority {annotations['priority']}")
    if annotations.get("lastModified"):
        parts.append(f"modified {annotations['lastModified']}")
    return "; ".join(parts) or None


def header_line(tool: Tool) -> str | None:
    """The form header's first line: the title and hints (a task-only tool's say it is
    called as an MCP task)."""
    words = hint_words(tool)
    mark = tool_mark(tool)
    parts = [part for part in (display_title(tool), ", ".join(words)) if part]
    return f"{mark + ' ' if mark else ''}{' · '.join(parts)}" if parts else None
