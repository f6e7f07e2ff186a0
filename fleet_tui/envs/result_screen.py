"""Result fields that break the protocol, set aside so that the rest of the result still shows.

The mcp SDK checks a result as a whole: a tools/call result whose `structuredContent` is not a
JSON object (`[1, 2, 3]`) fails with pydantic's message and its content is lost. `screened`,
passed over every message a session reads whichever the transport (`McpEndpoint`), takes such
a field out of a result before the SDK sees it and keeps it, as it arrived, under
`SET_ASIDE_KEY` in the result's `_meta`; `set_aside` puts it back and names the problem
(`envs/results.py`).
"""

from __future__ import annotations

from typing import Any

SET_ASIDE_KEY = "fleet-tui/set-aside"
"""In a result's `_meta`: the fields taken out because they break the protocol."""
OBJECT_FIELDS = ("structuredContent",)
"""Result fields the protocol says are JSON objects."""


def screened(item: Any) -> Any:
    """`item` (a message read from a transport), with a result's broken fields set aside."""
    import mcp_types
    from mcp.shared.message import SessionMessage

    if not isinstance(item, SessionMessage) or not isinstance(
        item.message, mcp_types.JSONRPCResponse
    ):
        return item
    result = item.message.result
    broken = {
        name: result[name]
        for name in OBJECT_FIELDS
        if result.get(name) is not None and not isinstance(result[name], dict)
    }
    if not broken:
        return item
    given = result.get("_meta")
    meta = given if isinstance(given, dict) else {}
    kept = {name: value for name, value in result.items() if name not in broken}
    kept["_meta"] = {**meta, SET_ASIDE_KEY: broken}
    return SessionMessage(item.message.model_copy(update={"result": kept}), item.metadata)


def set_aside(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The result `raw` as it arrived (its set-aside fields back), and what was wrong with
    them."""
    meta = raw.get("_meta")
    broken = meta.get(SET_ASIDE_KEY) if isinstance(meta, dict) else None
    if not isinstance(broken, dict):
        return raw, []
    assert isinstance(meta, dict)
    arrived = {name: value for name, value in raw.items() if name != "_meta"}
    if rest := {key: value for key, value in meta.items() if key != SET_ASIDE_KEY}:
        arrived["_meta"] = rest
    arrived.update(broken)
    return arrived, [f"{name} is not an object: ignored" for name in broken]
