"""Warm sessions: `fleet-tui call|tools --keep-warm` leaves a daemon holding the MCP session
open, and later `call` and `tools` on the same endpoints (from the same directory) are
forwarded to it over a Unix socket, so they skip importing the mcp SDK and connecting.

`place.py` says where a daemon listens (stdlib only), `client.py` forwards a command line to
it (stdlib only: the forwarding process never imports mcp or pydantic), `start.py` starts one
and asks running ones. The daemon itself runs commands, so it is one of them:
`commands/warm_daemon.py` (`fleet-tui warm serve`).
"""
