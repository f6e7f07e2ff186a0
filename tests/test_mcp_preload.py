"""Loading the mcp SDK leaves the event loop running (a TUI keeps painting meanwhile), and every
endpoint's transport shares one SSL context."""

from __future__ import annotations

import subprocess
import sys

from fleet_tui.envs.mcp_http import GuardedTransport
from fleet_tui.envs.mcp_preload import shared_ssl_context

LOAD_WHILE_TICKING = """
import asyncio, sys
from fleet_tui.envs import mcp_preload

async def main():
    ticks = 0
    async def tick():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)
    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    before = ticks
    assert "mcp" not in sys.modules
    await mcp_preload.loaded()
    ticker.cancel()
    made = mcp_preload.shared_ssl_context.cache_info().currsize == 1  # in a thread of its own
    print("mcp.client.session" in sys.modules, ticks - before > 1, made)

asyncio.run(main())
"""


def test_the_sdk_loads_in_a_thread_while_the_event_loop_runs_and_its_ssl_context_is_made():
    run = subprocess.run(
        [sys.executable, "-c", LOAD_WHILE_TICKING], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "True", "True"]


def test_endpoints_share_one_ssl_context():
    first, second = GuardedTransport("https://a.test/mcp"), GuardedTransport("http://b.test/mcp")
    assert first.inner._pool._ssl_context is second.inner._pool._ssl_context
    assert first.inner._pool._ssl_context is shared_ssl_context()
