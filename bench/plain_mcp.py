"""The baseline: what a user would write with the mcp SDK alone, no fleet-tui.

python bench/plain_mcp.py call URL TOOL ARGS_JSON   one endpoint: initialize, call, print
python bench/plain_mcp.py list URL [URL ...]        each endpoint in turn: initialize, list

FLEET_API_KEY, when set, is sent as `Authorization: Bearer` (a Fleet instance's endpoints want it).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def http_client():
    key = os.environ.get("FLEET_API_KEY")
    return create_mcp_http_client({"Authorization": f"Bearer {key}"} if key else None)


async def call(url: str, tool: str, arguments: dict) -> None:
    async with (
        http_client() as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool(tool, arguments)
        for block in result.content:
            print(getattr(block, "text", None) or f"[{block.type}]")


async def list_one_after_the_other(urls: list[str]) -> None:
    for url in urls:
        async with (
            http_client() as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            for tool in (await session.list_tools()).tools:
                print(f"{tool.name}  {url}")


def main(argv: list[str]) -> None:
    if argv[0] == "call":
        asyncio.run(call(argv[1], argv[2], json.loads(argv[3])))
    else:
        asyncio.run(list_one_after_the_other(argv[1:]))


if __name__ == "__main__":
    main(sys.argv[1:])
