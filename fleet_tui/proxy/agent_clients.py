"""How long an agent's MCP client likely waits for a call, told by the name it gives in
`initialize` (`clientInfo.name`), so a person holding its call sees when it will give up.

Read in the clients' sources (2026-11): openai-agents 0.24 waits
`client_session_timeout_seconds=5` on the `mcp` SDK's `ClientSession`, which names itself
`mcp` (the SDK's `DEFAULT_CLIENT_INFO`), as do other clients on that SDK, whose own default is
no timeout; pydantic-ai 2.68 talks MCP through fastmcp's `Client` (named `fastmcp`) with
`read_timeout = 5 * 60`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ClientTimeout:
    seconds: float
    who: str
    """Which client waits that long under that name."""


LIKELY_TIMEOUTS = {
    "mcp": ClientTimeout(5.0, "openai-agents"),
    "fastmcp": ClientTimeout(300.0, "pydantic-ai"),
}


def likely_timeout(client: str | None) -> ClientTimeout | None:
    """The known timeout of a client of that name, or None."""
    return LIKELY_TIMEOUTS.get(client) if client is not None else None


def hold_age_note(age_s: float, client: str | None) -> tuple[str, bool]:
    """How long a call has been held and when its agent likely gives up; and whether it
    likely has already (its answer then reaches no one)."""
    note = f"held {age_s:.0f} s"
    timeout = likely_timeout(client)
    if timeout is None:
        return note, False
    if age_s > timeout.seconds:
        return f"{note} · {client} ({timeout.who}) likely gave up at {timeout.seconds:g} s", True
    return f"{note} · {client} ({timeout.who}) gives up at {timeout.seconds:g} s", False
