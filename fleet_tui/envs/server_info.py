"""What a server said about itself when its session opened (its `initialize` or
`server/discover` result, `envs/protocol_revision.py`): name,
title, version, website, the protocol version agreed, its capabilities and its instructions
for the agent, as plain data the app and headless commands show alike.

All of it is the server's text, untrusted: the instructions are kept up to MAX_INSTRUCTIONS
characters, and whoever shows any of it cleans it first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

MAX_INSTRUCTIONS = 64 * 1024
"""Characters of a server's instructions kept; past them the rest is dropped, saying so."""
MAX_FIELD = 1_000
"""Characters kept of each short field (name, title, version, website, protocol)."""

FEATURES = ("tools", "resources", "prompts", "logging", "completions")
"""The server capabilities told one a line, in this order (others follow by name)."""
FLAGS = {"listChanged": "list changes", "subscribe": "subscriptions"}
MAX_CAPABILITIES = 40
"""Capabilities told by name; past them, how many more."""


class ServerInfo(BaseModel):
    """A server's `initialize` result."""

    name: str = ""
    title: str | None = None
    version: str = ""
    website: str | None = None
    protocol_version: str = ""
    capabilities: dict[str, Any] = Field(default_factory=dict)
    """As on the wire (camelCase), without the ones not declared."""
    instructions: str | None = None
    """At most MAX_INSTRUCTIONS characters of them."""
    instructions_length: int = 0
    """How many characters the server sent (more than kept when they were cut)."""

    @property
    def instructions_cut(self) -> bool:
        return self.instructions is not None and self.instructions_length > len(self.instructions)


def server_info(session: ClientSession) -> ServerInfo:
    """The plain form of what `session`'s server said when it opened. On the 2026-07-28
    revision its name and version are optional: absent, they are left empty."""
    implementation = session.server_info
    capabilities = session.server_capabilities
    instructions = session.instructions
    return ServerInfo(
        name=_short(implementation.name if implementation else "") or "",
        title=_short(implementation.title if implementation else None),
        version=_short(implementation.version if implementation else "") or "",
        website=_short(implementation.website_url if implementation else None),
        protocol_version=_short(session.protocol_version) or "",
        capabilities=(
            capabilities.model_dump(by_alias=True, exclude_none=True, mode="json")
            if capabilities
            else {}
        ),
        instructions=instructions[:MAX_INSTRUCTIONS] if instructions is not None else None,
        instructions_length=len(instructions or ""),
    )


def _short(text: str | None) -> str | None:
    return text[:MAX_FIELD] if text is not None else None


def capability_lines(capabilities: dict[str, Any]) -> list[str]:
    """One line per declared capability: `tools (list changes)`,
    `resources (subscriptions, list changes)`, `logging`; none declared: one line saying so."""
    names = [name for name in FEATURES if name in capabilities]
    names += sorted(name for name in capabilities if name not in FEATURES)
    lines = []
    for name in names[:MAX_CAPABILITIES]:
        value = capabilities[name]
        flags = [FLAGS[flag] for flag in FLAGS if isinstance(value, dict) and value.get(flag)]
        lines.append(f"{_short(name)} ({', '.join(flags)})" if flags else _short(name) or "")
    if len(names) > MAX_CAPABILITIES:
        lines.append(f"… and {len(names) - MAX_CAPABILITIES:,} more")
    return lines or ["(none declared)"]


def cut_note(info: ServerInfo) -> str | None:
    """The line that says the instructions were cut, when they were."""
    if not info.instructions_cut:
        return None
    return (
        f"… instructions cut: the server sent {info.instructions_length:,} characters, "
        f"the first {MAX_INSTRUCTIONS:,} are shown"
    )
