"""What an MCP server offers besides tools: resources, resource templates and prompts, as
models that cross into the UI and the headless commands, and their conversion from MCP.

Like tools, each item remembers the endpoint that owns it. Conversion accepts mcp objects or
plain dicts in either casing (see `envs/results.py`).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from fleet_tui.envs.base import ContentBlock, Model, ResourceBlock
from fleet_tui.envs.results import (
    content_block_from_mcp,
    decode_base64,
    pick,
    to_wire_dict,
)


class Resource(Model):
    """One listed resource."""

    uri: str
    name: str = ""
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    annotations: dict[str, Any] | None = None
    endpoint: str = ""


class ResourceTemplate(Model):
    """A family of resources named by an RFC 6570 URI template (`file:///{path}`)."""

    uri_template: str
    name: str = ""
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    endpoint: str = ""

    def variables(self) -> list[str]:
        """The template's variable names, in order (`{+path}`, `{?q,r}` give path, q, r)."""
        names: list[str] = []
        rest = self.uri_template
        while "{" in rest and "}" in rest.split("{", 1)[1]:
            inside, rest = rest.split("{", 1)[1].split("}", 1)
            for name in inside.lstrip("+#./;?&").split(","):
                name = name.split(":")[0].rstrip("*")
                if name and name not in names:
                    names.append(name)
        return names

    def expand(self, values: dict[str, str]) -> str:
        """The URI with each `{name}` replaced by its value (simple expansion only)."""
        from urllib.parse import quote

        uri = self.uri_template
        for name in self.variables():
            value = values.get(name, "")
            for form in (f"{{{name}}}", f"{{+{name}}}"):
                safe = "/:" if form.startswith("{+") else ""
                uri = uri.replace(form, quote(value, safe=safe))
        return uri


class ReadResult(Model):
    """What resources/read gave: one or more contents, text or binary, each with its URI."""

    uri: str
    contents: list[ResourceBlock] = Field(default_factory=list)
    endpoint: str = ""
    latency_s: float = 0.0


class PromptArgument(Model):
    name: str
    description: str | None = None
    required: bool = False


class Prompt(Model):
    """One listed prompt and the arguments it takes (all strings)."""

    name: str
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgument] = Field(default_factory=list)
    endpoint: str = ""

    def input_schema(self) -> dict[str, Any]:
        """The arguments as a JSON Schema of string properties, for the form builder."""
        return {
            "type": "object",
            "properties": {
                argument.name: {"type": "string", "description": argument.description or ""}
                for argument in self.arguments
            },
            "required": [argument.name for argument in self.arguments if argument.required],
        }


class PromptMessage(Model):
    role: str
    block: ContentBlock


class PromptResult(Model):
    """What prompts/get gave: the messages a client would put in front of a model."""

    name: str
    description: str | None = None
    messages: list[PromptMessage] = Field(default_factory=list)
    endpoint: str = ""


def resource_from_mcp(obj: Any, endpoint: str) -> Resource:
    data = to_wire_dict(obj)
    return Resource(
        uri=str(data["uri"]),
        name=str(data.get("name") or ""),
        title=data.get("title"),
        description=data.get("description"),
        mime_type=pick(data, "mime_type", "mimeType"),
        size=data.get("size") if isinstance(data.get("size"), int) else None,
        annotations=data.get("annotations") if isinstance(data.get("annotations"), dict) else None,
        endpoint=endpoint,
    )


def template_from_mcp(obj: Any, endpoint: str) -> ResourceTemplate:
    data = to_wire_dict(obj)
    return ResourceTemplate(
        uri_template=str(pick(data, "uri_template", "uriTemplate")),
        name=str(data.get("name") or ""),
        title=data.get("title"),
        description=data.get("description"),
        mime_type=pick(data, "mime_type", "mimeType"),
        endpoint=endpoint,
    )


def read_result_from_mcp(obj: Any, uri: str, endpoint: str, latency_s: float) -> ReadResult:
    data = to_wire_dict(obj)
    contents = []
    for item in data.get("contents") or []:
        item = to_wire_dict(item)
        blob = item.get("blob")
        contents.append(
            ResourceBlock(
                uri=str(item.get("uri") or uri),
                mime_type=pick(item, "mime_type", "mimeType"),
                text=item.get("text"),
                blob=decode_base64(blob) if isinstance(blob, str) else None,
            )
        )
    return ReadResult(uri=uri, contents=contents, endpoint=endpoint, latency_s=latency_s)


def prompt_from_mcp(obj: Any, endpoint: str) -> Prompt:
    data = to_wire_dict(obj)
    return Prompt(
        name=str(data["name"]),
        title=data.get("title"),
        description=data.get("description"),
        arguments=[
            PromptArgument(
                name=str(argument["name"]),
                description=argument.get("description"),
                required=bool(argument.get("required")),
            )
            for argument in map(to_wire_dict, data.get("arguments") or [])
        ],
        endpoint=endpoint,
    )


def prompt_result_from_mcp(obj: Any, name: str, endpoint: str) -> PromptResult:
    data = to_wire_dict(obj)
    return PromptResult(
        name=name,
        description=data.get("description"),
        messages=[
            PromptMessage(
                role=str(message.get("role") or "?"),
                block=content_block_from_mcp(message.get("content") or {}),
            )
            for message in map(to_wire_dict, data.get("messages") or [])
        ],
        endpoint=endpoint,
    )
