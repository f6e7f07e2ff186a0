"""`fleet-tui proxy` held and released from its stdin: `--hold` and `--break` hold the agent's
calls (each announced by a `held` line), `list`, `step`, `release N`, `refuse N` and `resume`
answer them, a bad command is answered in plain words; `--token` or `$FLEET_TUI_PROXY_TOKEN`
set the token, and `--help` lists the commands. The proxy is a child process; the agent an
`mcp` SDK ClientSession over HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

from fleet_tui.proxy.agent_calls import REFUSED_BY_PERSON
from tests.cli_run import fleet_tui
from tests.fixtures.local_host import mcp_session
from tests.proxy_run import Proxy, proxy

TOKEN = "a-token-for-the-agent-1234"


async def held_call(served: Proxy, agent: Any, tool: str, arguments: dict) -> tuple[Any, dict]:
    """The agent calls `tool`; the call (a task) and its `held` line."""
    call = asyncio.ensure_future(agent.call_tool(tool, arguments))
    return call, await asyncio.to_thread(served.next_line, "held")


async def control(served: Proxy, command: str) -> dict:
    served.send(command)
    return await asyncio.to_thread(served.next_line, "control")


async def test_held_calls_are_listed_and_answered_from_stdin(mcp_alpha):
    with proxy(
        "--mcp", mcp_alpha.url, "--no-record", "--hold", "--break", "add",
        env={"FLEET_TUI_PROXY_TOKEN": TOKEN},
    ) as served:  # fmt: skip
        assert served.token == TOKEN
        async with mcp_session(served.url, TOKEN) as agent:
            refused, first = await held_call(served, agent, "echo", {"text": "one"})
            released, second = await held_call(served, agent, "echo", {"text": "two"})
            assert (first["tool"], first["arguments"], first["reason"]) == (
                "echo",
                {"text": "one"},
                "paused",
            )
            listed = await control(served, "list")
            assert listed["ok"] and listed["paused"]
            assert [h["number"] for h in listed["held"]] == [first["number"], second["number"]]
            assert (await control(served, f"refuse {first['number']}"))["ok"]
            assert (await refused).content[0].text == REFUSED_BY_PERSON
            assert (await control(served, f"release {second['number']}"))["ok"]
            assert (await released).content[0].text == "two"

            bad = await control(served, "release 999")
            assert not bad["ok"] and bad["error"] == "no held call #999"
            assert not (await control(served, "jump"))["ok"]

            stepped, third = await held_call(served, agent, "echo", {"text": "three"})
            assert (await control(served, "step"))["number"] == third["number"]
            assert (await stepped).content[0].text == "three"
            assert (await control(served, "resume"))["ok"]
            assert (await agent.call_tool("echo", {"text": "flows"})).content[0].text == "flows"

            at_break, held = await held_call(served, agent, "add", {"a": 1, "b": 2})
            assert held["reason"] == "breakpoint add"
            assert (await control(served, "resume"))["ok"]
            assert (await at_break).structured_content == {"result": 3}
        served.stop()


async def test_token_flag_and_help(mcp_alpha):
    with proxy("--mcp", mcp_alpha.url, "--no-record", "--token", TOKEN) as served:
        assert served.token == TOKEN
        assert served.config["mcpServers"]["fleet-tui"]["headers"]["Authorization"] == (
            f"Bearer {TOKEN}"
        )
        served.stop()
    helped = fleet_tui("proxy", "--help")
    for words in ("--hold", "--break", "--hold-limit", "--token", "FLEET_TUI_PROXY_TOKEN"):
        assert words in helped.stdout
    for command in ("pause", "resume", "step", "release N", "refuse N", "list"):
        assert f"  {command}" in helped.stdout
    refused = fleet_tui("proxy", "--mcp", mcp_alpha.url, "--token", "has space")
    assert refused.returncode == 2 and "visible ASCII" in refused.stderr
    refused = fleet_tui("proxy", "--mcp", mcp_alpha.url, "--hold-limit", "0")
    assert refused.returncode == 2 and "positive number of seconds" in refused.stderr
