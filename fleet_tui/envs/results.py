"""Turn an MCP CallToolResult into a `ToolResult` (and a listed MCP tool into a `Tool`).

Accepts mcp objects (pydantic models) or plain dicts, in the snake_case field names of mcp 2.x
(`is_error`, `structured_content`, `mime_type`) or the camelCase of the wire and of mcp 1.x
(`isError`, `structuredContent`, `mimeType`). Nothing is dropped: a block we do not understand
becomes an `UnknownBlock` carrying what arrived.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from fleet_tui.big_json import json_length
from fleet_tui.envs.base import (
    AudioBlock,
    ContentBlock,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    Tool,
    ToolResult,
    UnknownBlock,
)
from fleet_tui.envs.block_merge import merge_text_runs
from fleet_tui.envs.result_screen import set_aside

BROKEN_TOOL_KEY = "fleet-tui/broken"
"""In a listed tool's `_meta`: why the tool as the server listed it cannot be used (set on the
stand-in that replaces a tool the mcp SDK would reject)."""


def tool_result_from_mcp(obj: Any, *, endpoint: str = "", latency_s: float = 0.0) -> ToolResult:
    """A ToolResult from a CallToolResult object or its dict form (either casing)."""
    screened = to_wire_dict(obj)
    merge_text_runs(screened)
    raw, problems = set_aside(screened)
    content: list[Any] = screened.get("content") or []
    blocks = [content_block_from_mcp(block) for block in content]
    size_bytes = json_length(raw)
    if raw.get("content") is content:
        raw["content"] = [
            _without_base64(wire, block) for wire, block in zip(content, blocks, strict=True)
        ]
    return ToolResult(
        blocks=blocks,
        is_error=bool(pick(screened, "is_error", "isError")),
        structured=pick(screened, "structured_content", "structuredContent"),
        problems=problems,
        latency_s=latency_s,
        endpoint=endpoint,
        size_bytes=size_bytes,
        raw=raw,
    )


def _without_base64(wire: Any, block: ContentBlock) -> Any:
    """A wire block whose base64 text was decoded into `block`, with that text replaced by a
    note of its length: the raw reply is kept for the Raw view, and a screenshot's base64 text
    would take more memory than its bytes."""
    if not isinstance(wire, dict):
        return wire
    if isinstance(block, (ImageBlock, AudioBlock)) and isinstance(wire.get("data"), str):
        return {**wire, "data": _decoded_note(wire["data"])}
    resource = wire.get("resource") if isinstance(block, ResourceBlock) else None
    if isinstance(resource, dict) and isinstance(resource.get("blob"), str):
        return {**wire, "resource": {**resource, "blob": _decoded_note(resource["blob"])}}
    return wire


def _decoded_note(text: str) -> str:
    return f"<{len(text)} characters of base64, decoded>"


def tool_from_mcp(obj: Any, endpoint: str) -> Tool:
    """A Tool from a listed MCP tool, as an object or its dict form (either casing)."""
    if not isinstance(obj, Mapping):
        return tool_from_wire(listed_fields(obj), endpoint)
    schemas = pick(obj, "input_schema", "inputSchema"), pick(obj, "output_schema", "outputSchema")
    return _tool(obj, endpoint, *schemas)


def tool_from_wire(tool: Mapping[str, Any], endpoint: str) -> Tool:
    """A Tool from a listed tool's JSON as the SDK checked it: only the protocol's names are
    read, so a key a server adds beside them (`input_schema`) cannot stand in for the checked
    one (`inputSchema`)."""
    return _tool(tool, endpoint, tool.get("inputSchema"), tool.get("outputSchema"))


def _tool(tool: Mapping[str, Any], endpoint: str, input_schema: Any, output_schema: Any) -> Tool:
    annotations = tool.get("annotations")
    return Tool(
        name=str(tool["name"]),
        description=tool.get("description") or "",
        title=tool.get("title"),
        input_schema=input_schema or {"type": "object"},
        output_schema=output_schema,
        endpoint=endpoint,
        broken=broken_reason(tool),
        annotations=annotations if isinstance(annotations, dict) else None,
        task_support=task_support(tool),
    )


def listed_fields(tool: Any) -> dict[str, Any]:
    """The fields `tool_from_wire` reads of the SDK's tool object, in wire casing. Read one by
    one rather than dumped: dumping copied every schema of a listing once more (a third of the
    time it took to list 10,000 tools); only the small annotations and execution are dumped."""
    return {
        "name": tool.name,
        "description": tool.description,
        "title": tool.title,
        "inputSchema": tool.input_schema,
        "outputSchema": tool.output_schema,
        "annotations": to_wire_dict(tool.annotations) if tool.annotations else None,
        "execution": to_wire_dict(tool.execution) if tool.execution else None,
        "_meta": tool.meta,
    }


def task_support(tool: Mapping[str, Any]) -> str | None:
    """A listed tool's `execution.taskSupport` ("forbidden", "optional", "required")."""
    execution = tool.get("execution")
    if execution is None or not isinstance(execution, Mapping):
        return None
    support = pick(execution, "task_support", "taskSupport")
    return str(support) if support is not None else None


def broken_reason(tool: Mapping[str, Any]) -> str | None:
    """Why a listed tool cannot be used, if its `_meta` says so."""
    meta = tool.get("_meta")
    if meta is None:  # most tools (and the check below is an ABC's, slower)
        return None
    reason = meta.get(BROKEN_TOOL_KEY) if isinstance(meta, Mapping) else None
    return str(reason) if reason is not None else None


def content_block_from_mcp(block: Any) -> ContentBlock:
    """One MCP content block (object or dict, either casing) as a ContentBlock."""
    data = to_wire_dict(block)
    try:
        converted = _convert_block(data)
    except (KeyError, TypeError, ValueError, binascii.Error):
        return UnknownBlock(raw=data)
    annotations = data.get("annotations")
    if isinstance(annotations, dict) and not isinstance(converted, UnknownBlock):
        converted.annotations = annotations
    return converted


def _convert_block(data: dict[str, Any]) -> ContentBlock:
    kind = data.get("type")
    mime_type = pick(data, "mime_type", "mimeType")
    if kind == "text":
        return TextBlock(text=data["text"])
    if kind == "image":
        return ImageBlock(mime_type=mime_type or "image/png", data=decode_base64(data["data"]))
    if kind == "audio":
        return AudioBlock(mime_type=mime_type or "audio/wav", data=decode_base64(data["data"]))
    if kind == "resource":
        resource = to_wire_dict(data["resource"])
        blob = resource.get("blob")
        return ResourceBlock(
            uri=str(resource["uri"]),
            mime_type=pick(resource, "mime_type", "mimeType"),
            text=resource.get("text"),
            blob=decode_base64(blob) if blob is not None else None,
        )
    if kind in ("resource_link", "resourceLink"):
        return ResourceLinkBlock(
            uri=str(data["uri"]),
            name=data.get("name") or "",
            description=data.get("description"),
            mime_type=mime_type,
        )
    return UnknownBlock(raw=data)


def decode_base64(text: str) -> bytes:
    """Strict base64 decoding that tolerates line breaks; raises binascii.Error on bad input."""
    return base64.b64decode("".join(text.split()), validate=True)


def to_wire_dict(obj: Any) -> dict[str, Any]:
    """A pydantic model as its JSON wire dict (camelCase aliases); a mapping as a plain dict."""
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(obj, Mapping):
        return dict(obj)
    raise TypeError(f"expected an MCP result object or a dict, got {type(obj).__name__}")


def pick(data: Mapping[str, Any], *names: str) -> Any:
    """The first of `names` present in `data` (so both casings are accepted), else None."""
    for name in names:
        if data.get(name) is not None:
            return data[name]
    return None


def error_result(
    message: str, kind: str, *, endpoint: str = "", latency_s: float = 0.0, raw: Any = None
) -> ToolResult:
    """A failed call: the message as text, the kind of failure in `error_kind`."""
    return ToolResult(
        blocks=[TextBlock(text=message)],
        is_error=True,
        error_kind=kind,
        latency_s=latency_s,
        endpoint=endpoint,
        raw=raw,
    )
