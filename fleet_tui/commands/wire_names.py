"""MCP objects in `--json` output under the names MCP gives them on the wire.

fleet-tui's models use Python's names (`input_schema`, `mime_type`, `is_error`); a script that
reads `fleet-tui tools --json` next to an MCP client's output expects `inputSchema`,
`mimeType`, `isError`. Only an object's own keys are renamed (a schema's properties and an
annotation's keys are the server's data, kept as sent), and fleet-tui's own fields (`endpoint`,
`latency_s`, `size_bytes`, `reward`, ...) keep their names.
"""

from __future__ import annotations

from typing import Any

WIRE_NAMES = {
    "input_schema": "inputSchema",
    "output_schema": "outputSchema",
    "mime_type": "mimeType",
    "uri_template": "uriTemplate",
    "is_error": "isError",
    "structured": "structuredContent",
    "protocol_version": "protocolVersion",
    "website": "websiteUrl",
}


def wire(data: dict[str, Any]) -> dict[str, Any]:
    """`data` (a model's JSON dump) with its keys renamed where MCP names them otherwise; a
    tool's task support goes where MCP puts it, `execution.taskSupport`."""
    renamed = {WIRE_NAMES.get(key, key): value for key, value in data.items()}
    if "task_support" in renamed:
        support = renamed.pop("task_support")
        if support is not None:
            renamed["execution"] = {"taskSupport": support}
    return renamed
