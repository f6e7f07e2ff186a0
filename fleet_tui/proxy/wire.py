"""fleet-tui's tools and results as the MCP wire shapes the proxy serves.

Each is built as a camelCase wire dict and checked by the `mcp` types, so the agent sees the
tool (name, title, description, schemas, annotations) and the result (content blocks in order,
each with its annotations, structured content, the error flag) the env gave. What an episodic
env (OpenEnv) says of the step goes in the result's `_meta`, as `fleet-tui/reward` and
`fleet-tui/done`: the content stays the env's own.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from mcp import types

from fleet_tui.envs.base import (
    AudioBlock,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    Tool,
    ToolResult,
)


def mcp_tool(tool: Tool) -> types.Tool:
    """The tool as listed to the agent (without annotations the SDK would not accept)."""
    wire: dict[str, Any] = {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
    }
    optional = {
        "title": tool.title,
        "outputSchema": tool.output_schema,
        "annotations": tool.annotations,
    }
    wire.update({key: value for key, value in optional.items() if value is not None})
    try:
        return types.Tool.model_validate(wire)
    except ValueError:
        wire.pop("annotations", None)
        return types.Tool.model_validate(wire)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def wire_block(block: Any) -> dict[str, Any]:
    """One content block as MCP sends it, with the server's annotations (`audience`,
    `priority`, ...); a block of a kind we do not know, as it came."""
    wire = _bare_block(block)
    annotations = getattr(block, "annotations", None)
    if annotations and "annotations" not in wire:
        wire["annotations"] = annotations
    return wire


def resource_contents(block: ResourceBlock) -> dict[str, Any]:
    """An embedded resource's contents (text or base64 blob) as MCP sends them."""
    contents: dict[str, Any] = {"uri": block.uri}
    if block.mime_type:
        contents["mimeType"] = block.mime_type
    if block.blob is not None:
        contents["blob"] = _b64(block.blob)
    else:
        contents["text"] = block.text or ""
    return contents


def _bare_block(block: Any) -> dict[str, Any]:
    match block:
        case TextBlock(text=text):
            return {"type": "text", "text": text}
        case ImageBlock() | AudioBlock():
            return {"type": block.type, "data": _b64(block.data), "mimeType": block.mime_type}
        case ResourceBlock():
            return {"type": "resource", "resource": resource_contents(block)}
        case ResourceLinkBlock():
            link = {"type": "resource_link", "uri": block.uri, "name": block.name}
            extra = {"description": block.description, "mimeType": block.mime_type}
            return link | {key: value for key, value in extra.items() if value is not None}
    raw = getattr(block, "raw", block)
    return raw if isinstance(raw, dict) else {"type": "text", "text": json.dumps(raw, default=str)}


def _content(block: Any) -> Any:
    wire = wire_block(block)
    try:
        return types.CallToolResult.model_validate({"content": [wire]}).content[0]
    except ValueError:
        return types.TextContent(text=json.dumps(wire, ensure_ascii=False, default=str))


EPISODE_META = {"reward": "fleet-tui/reward", "done": "fleet-tui/done"}
"""The `_meta` key of each episode field a result may carry."""


def mcp_result(result: ToolResult) -> types.CallToolResult:
    """The env's result, block for block, for the agent, with the step's reward and done flag
    when the env reports them."""
    episode = {key: getattr(result, field) for field, key in EPISODE_META.items()}
    return types.CallToolResult(
        content=[_content(block) for block in result.blocks],
        structured_content=result.structured,
        is_error=result.is_error,
        meta={key: value for key, value in episode.items() if value is not None} or None,
    )


def mcp_error(message: str) -> types.CallToolResult:
    """A call that got no result from the env (it failed, or the person refused it)."""
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)
