"""What every MCP connection needs, made once and off the event loop: the mcp SDK's modules
(importing them takes most of a second: their types build pydantic models; loaded with the
garbage collector held off, and then frozen, `collector.loading_modules`) and one SSL context
(loading the CA bundle takes ~20 ms) shared by every endpoint's HTTP transport."""

from __future__ import annotations

import asyncio
import functools
import importlib
import ssl
import sys
import threading

from fleet_tui.collector import loading_modules

SDK_MODULES = ("mcp.client.session", "mcp.client.streamable_http", "fleet_tui.envs.mcp_http")
HTTP_MODULES = ("httpx2", "httpcore2")
"""What `shared_ssl_context` imports before OpenSSL reads the CA bundle (httpx2 imports
httpcore2 when it makes a context or a transport)."""


@functools.cache
def shared_ssl_context() -> ssl.SSLContext:
    """The SSL context of every MCP endpoint's transport (httpx2's default verification)."""
    import httpx2

    return httpx2.create_ssl_context()


def load() -> None:
    """Import the SDK and make the SSL context (slow: call it in a thread, see `loaded`). The
    context is made in a thread of its own meanwhile: OpenSSL reads the CA bundle without
    holding the interpreter's lock, on another core while the SDK's imports hold it. The HTTP
    modules it is made with are imported first, here: imported in that thread, they took turns
    with the SDK's imports for the lock, and the bundle was often still loading once the SDK
    was there (10 to 20 ms of each cold command)."""
    with loading_modules():
        for name in HTTP_MODULES:
            importlib.import_module(name)
        context = threading.Thread(target=shared_ssl_context, name="fleet-tui-ssl-context")
        context.start()
        for name in SDK_MODULES:
            importlib.import_module(name)
    context.join()


async def loaded() -> None:
    """Load what `load` loads in a thread, so the event loop (a TUI's first frame and its
    spinner) keeps running meanwhile; at once when it is loaded."""
    if shared_ssl_context.cache_info().currsize and all(m in sys.modules for m in SDK_MODULES):
        return
    await asyncio.to_thread(load)
