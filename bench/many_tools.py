"""An MCP server over streamable HTTP that lists COUNT tools, for the listing benchmarks.

Run: .venv/bin/python bench/many_tools.py COUNT   (prints its URL, serves until killed)
It answers with JSON (no server-sent events): `initialize`, `ping`, and `tools/list` with one
page of COUNT tools, each with a ~100-character description and an input schema of three
properties as pydantic makes them (one optional, as `anyOf` with null). The reply is built
once, so the server's own cost is sending bytes, not making them.
"""

from __future__ import annotations

import json
import socket
import sys
from typing import Any

import uvicorn


def wire_tools(count: int) -> list[dict[str, Any]]:
    """`count` tools as a server lists them (camelCase wire names)."""
    return [
        {
            "name": f"tool_{index:05d}",
            "description": (
                f"Reads the records of table {index} whose column matches a value, newest first, "
                "in pages of the given size."
            ),
            "inputSchema": {
                "type": "object",
                "properties": {
                    "table": {"type": "string", "title": "Table"},
                    "limit": {"type": "integer", "default": 10, "title": "Limit"},
                    "match": {
                        "anyOf": [{"type": "string"}, {"type": "null"}],
                        "default": None,
                        "title": "Match",
                    },
                },
                "required": ["table"],
            },
            "annotations": {"readOnlyHint": True},
        }
        for index in range(count)
    ]


def make_app(count: int):
    """The ASGI app answering as the module says."""
    listing = json.dumps({"tools": wire_tools(count)})

    async def app(scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        if scope["method"] != "POST":
            await respond(send, 405 if scope["method"] == "GET" else 200, b"")
            return
        body = b""
        while True:
            event = await receive()
            body += event.get("body", b"")
            if not event.get("more_body"):
                break
        message = json.loads(body)
        if "id" not in message:
            await respond(send, 202, b"")
            return
        result = "{}"
        if message["method"] == "initialize":
            result = json.dumps(
                {
                    "protocolVersion": message["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "many-tools", "version": "1"},
                }
            )
        elif message["method"] == "tools/list":
            result = listing
        reply = f'{{"jsonrpc":"2.0","id":{json.dumps(message["id"])},"result":{result}}}'
        await respond(send, 200, reply.encode())

    return app


async def respond(send, status: int, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def main() -> None:
    count = int(sys.argv[1])
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    print(f"http://127.0.0.1:{listener.getsockname()[1]}/mcp", flush=True)
    config = uvicorn.Config(make_app(count), log_level="warning", lifespan="off")
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    main()
