"""The tools of N MCP endpoints as one list of names, each name owned by one endpoint.

Two endpoints may offer a tool of the same name. Given plain `--mcp`/`--stdio` endpoints
(perhaps two builds of one server, compared side by side), both stay reachable: each such tool
is named `LABEL/NAME`, LABEL being its server's name (with the endpoint's position when two
servers share a name: `echo-1/add`, `echo-2/add`). `/` is a character MCP allows in tool names
and servers rarely put in their own, so the qualified name reads as "that server's tool" and
still goes through an agent's MCP client unchanged. A Fleet instance's two endpoints are two
doors to one env: there the first endpoint wins a name, and a different schema behind the other
is reported as a conflict.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fleet_tui.envs.base import Tool, ToolConflict
from fleet_tui.envs.results import tool_from_wire

if TYPE_CHECKING:
    from fleet_tui.envs.mcp_endpoint import McpEndpoint

MAX_LABEL = 32
"""Characters of a server's name kept in a label."""


@dataclass
class Owner:
    """Who answers a tool name: the endpoint, and the name its server knows the tool by."""

    endpoint: McpEndpoint
    server_name: str


@dataclass
class ToolUnion:
    """The tools by the names shown, who answers each, and what clashed."""

    tools: list[Tool] = field(default_factory=list)
    owners: dict[str, Owner] = field(default_factory=dict)
    conflicts: list[ToolConflict] = field(default_factory=list)
    """Same name, different schema, first endpoint kept (a union that does not qualify)."""
    qualified: dict[str, list[str]] = field(default_factory=dict)
    """A name several endpoints offer -> the qualified names it is reached by."""


def endpoint_labels(endpoints: Sequence[McpEndpoint]) -> dict[McpEndpoint, str]:
    """A short label per endpoint: its server's name in tool-name characters, with its
    position (1-based) when another endpoint's server has the same name."""
    names = [_label_text(e.status.server.name if e.status.server else "") for e in endpoints]
    counts = Counter(names)
    return {
        endpoint: name if counts[name] == 1 else f"{name}-{position}"
        for position, (endpoint, name) in enumerate(zip(endpoints, names, strict=True), 1)
    }


def _label_text(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.")[:MAX_LABEL] or "endpoint"


def union_of(
    answered: list[tuple[McpEndpoint, list[dict[str, Any]]]],
    labels: dict[McpEndpoint, str] | None,
) -> ToolUnion:
    """Merge per-endpoint listings (each tool's checked JSON) by name: with `labels`, a name
    several endpoints offer is qualified by their labels; without, the first endpoint wins it."""
    listed = [
        (endpoint, tool_from_wire(item, endpoint.url))
        for endpoint, items in answered
        for item in items
    ]
    endpoints_offering = Counter(name for _, name in {(id(e), t.name) for e, t in listed})
    union = ToolUnion()
    kept: dict[str, Tool] = {}
    for endpoint, tool in listed:
        server_name = tool.name
        if labels is not None and endpoints_offering[server_name] > 1:
            tool = tool.model_copy(update={"name": f"{labels[endpoint]}/{server_name}"})
            union.qualified.setdefault(server_name, []).append(tool.name)
        first = kept.get(tool.name)
        if first is None:
            kept[tool.name] = tool
            union.owners[tool.name] = Owner(endpoint, server_name)
        elif first.input_schema != tool.input_schema:
            union.conflicts.append(
                ToolConflict(
                    name=tool.name, kept_endpoint=first.endpoint, other_endpoint=endpoint.url
                )
            )
    union.tools = list(kept.values())
    return union
