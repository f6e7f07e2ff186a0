"""The session's resources and prompts as the MCP wire shapes the proxy serves: what the
session listed, read or got from the endpoint that owns each (the session routes it), checked
by the `mcp` types; content annotations kept."""

from __future__ import annotations

from typing import Any

from mcp import types

from fleet_tui.envs.catalog import Prompt, PromptResult, ReadResult, Resource, ResourceTemplate
from fleet_tui.proxy.wire import resource_contents, wire_block


def _present(wire: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in wire.items() if value is not None}


def resources_result(resources: list[Resource]) -> types.ListResourcesResult:
    listed = [
        _present(
            {
                "uri": r.uri,
                "name": r.name or r.uri,
                "title": r.title,
                "description": r.description,
                "mimeType": r.mime_type,
                "size": r.size,
                "annotations": r.annotations,
            }
        )
        for r in resources
    ]
    return types.ListResourcesResult.model_validate({"resources": listed})


def templates_result(templates: list[ResourceTemplate]) -> types.ListResourceTemplatesResult:
    listed = [
        _present(
            {
                "uriTemplate": t.uri_template,
                "name": t.name or t.uri_template,
                "title": t.title,
                "description": t.description,
                "mimeType": t.mime_type,
            }
        )
        for t in templates
    ]
    return types.ListResourceTemplatesResult.model_validate({"resourceTemplates": listed})


def read_result(result: ReadResult) -> types.ReadResourceResult:
    contents = [resource_contents(block) for block in result.contents]
    return types.ReadResourceResult.model_validate({"contents": contents})


def prompts_result(prompts: list[Prompt]) -> types.ListPromptsResult:
    listed = [
        _present(
            {
                "name": p.name,
                "title": p.title,
                "description": p.description,
                "arguments": [a.model_dump(exclude_none=True) for a in p.arguments],
            }
        )
        for p in prompts
    ]
    return types.ListPromptsResult.model_validate({"prompts": listed})


def prompt_result(result: PromptResult) -> types.GetPromptResult:
    messages = [{"role": m.role, "content": wire_block(m.block)} for m in result.messages]
    wire = _present({"description": result.description, "messages": messages})
    return types.GetPromptResult.model_validate(wire)
