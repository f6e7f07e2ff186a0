"""The baseline: what a user would write with the mcp SDK alone, no fleet-tui.

python bench/plain_mcp.py call URL TOOL ARGS_JSON   one endpoint: initialize, call, print
python bench/plain_mcp.py list URL [URL ...]        each endpoint in turn: initialize, list
"""

from __future__ import annotations

import asyncio
import json
import sys

from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def call(url: str, tool: str, arguments: dict) -> None:
    async with (
        streamable_http_client(url) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool(tool, arguments)
        for block in result.content:
            print(getattr(block, "text", None) or f"[{block.type}]")


async def list_one_after_the_other(urls: list[str]) -> None:
    for url in urls:
        async with (
            streamable_http_client(url) as (read, write),
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
