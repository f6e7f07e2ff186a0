"""fleet-tui as an MCP proxy: the env's tool union served to an agent on 127.0.0.1.

`server.py` serves the union over streamable HTTP behind a bearer token (the loopback guard,
`fleet_tui/loopback_guard.py`); `agent_calls.py` runs each of the agent's calls through the
session controller, so it is numbered, shown and recorded like the person's own; `gate.py` holds
agent calls while the person pauses, steps, takes over or stops at a breakpoint; `wire.py` turns
fleet-tui's tools and results into MCP's.
"""
