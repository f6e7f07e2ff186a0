"""Which agent a request to the proxy comes from: the MCP session its client holds (the
`Mcp-Session-Id` the SDK's session manager gave it, so two clients are two agents) and the name
and version its client gave in `clientInfo` (at `initialize`, or in each request's `_meta` on
protocols without one). All of it is the client's own word, kept short and on one line."""

from __future__ import annotations

from typing import Any

from fleet_tui.session_records import Agent
from fleet_tui.text import one_line

SESSION_HEADER = "mcp-session-id"
CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo"
"""Where protocols without `initialize` carry the client's info (in each request's `_meta`)."""
WORD_LIMIT = 100


def agent_of(context: Any) -> Agent:
    """The agent behind a request (`context`: the SDK's request context)."""
    headers = getattr(getattr(context, "request", None), "headers", None)
    info = _client_info(context)
    return Agent(
        id=_word(headers.get(SESSION_HEADER) if headers is not None else None),
        name=_word(info.get("name")),
        version=_word(info.get("version")),
    )


def _client_info(context: Any) -> dict[str, Any]:
    params = getattr(getattr(context, "session", None), "client_params", None)
    info = getattr(params, "client_info", None)
    if info is not None:
        return {"name": info.name, "version": info.version}
    meta = getattr(context, "meta", None)
    given = meta.get(CLIENT_INFO_META) if isinstance(meta, dict) else None
    return given if isinstance(given, dict) else {}


def _word(value: Any) -> str | None:
    return one_line(value, WORD_LIMIT) or None if isinstance(value, str) else None
