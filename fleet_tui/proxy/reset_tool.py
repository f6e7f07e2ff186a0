"""The `reset` tool the proxy adds with `--expose-reset`: an agent (a rollout worker) starts a
new episode through the session controller, as a person's reset does, so it is recorded and in
the history. Its arguments are an optional integer `seed` and the env's own reset keywords.
"""

from __future__ import annotations

from typing import Any

from mcp import types

from fleet_tui.envs.base import EnvError, ResetResult
from fleet_tui.proxy.wire import mcp_error, mcp_result

RESET_TOOL = "reset"

RESET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "seed": {"type": "integer", "description": "the new episode's seed (optional)"},
    },
    "additionalProperties": True,
}


def reset_tool() -> types.Tool:
    """The tool as listed to the agent."""
    return types.Tool(
        name=RESET_TOOL,
        title="Reset",
        description=(
            "Start a new episode. `seed` is optional; any other argument is passed to the "
            "env's reset as a keyword. Returns the opening observation."
        ),
        input_schema=RESET_SCHEMA,
    )


def reset_request(arguments: dict[str, Any]) -> tuple[int | None, dict[str, Any]]:
    """The seed and env keywords of the tool's arguments; EnvError if the seed is no integer."""
    keywords = dict(arguments)
    seed = keywords.pop("seed", None)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise EnvError(f"the seed must be an integer, not {seed!r}")
    return seed, keywords


def reset_answer(outcome: ResetResult | None, message: str | None) -> types.CallToolResult:
    """What the agent gets: the opening observation, or why the reset failed."""
    if outcome is None or not outcome.success:
        return mcp_error(message or "The reset failed.")
    if outcome.result is None:
        return types.CallToolResult(content=[types.TextContent(text=outcome.message or "Reset.")])
    return mcp_result(outcome.result)
