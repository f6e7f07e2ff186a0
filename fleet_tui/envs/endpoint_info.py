"""An MCP endpoint told as labelled rows (how it is reached, its state, what its server said
about itself), for the app's info view and `fleet-tui info` alike. Values are the server's
text, not yet made safe for a terminal: whoever shows them does that."""

from __future__ import annotations

from fleet_tui.envs.base import EndpointStatus
from fleet_tui.envs.server_info import capability_lines

TRANSPORTS = {
    "http": "streamable HTTP",
    "sse": "SSE",
    "stdio": "stdio",
    "websocket": "WebSocket session",
}


def endpoint_rows(endpoint: EndpointStatus) -> list[tuple[str, str]]:
    """(label, value) rows: its transport, state and tools, then the server's name and
    version, title, website, protocol version and capabilities once it answered
    `initialize`."""
    connection = f"{TRANSPORTS[endpoint.transport]} · {endpoint.state.value}"
    rows = [("Connection", f"{connection} · {endpoint.tool_count} tools")]
    if endpoint.error:
        rows.append(("Error", endpoint.error))
    info = endpoint.server
    if info is None:
        return rows
    rows.append(("Server", f"{info.name} {info.version}".strip()))
    if info.title:
        rows.append(("Title", info.title))
    if info.website:
        rows.append(("Website", info.website))
    rows.append(("Protocol", info.protocol_version))
    rows.append(("Capabilities", ", ".join(capability_lines(info.capabilities))))
    return rows
