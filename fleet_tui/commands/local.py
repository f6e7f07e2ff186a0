"""`fleet-tui local serve [--port P] [--token T]`: run the embedded local Fleet host in the
foreground. It prints FLEET_BASE_URL and FLEET_API_KEY (its token) for clients to use."""

from __future__ import annotations

import argparse
import os
import signal
import sys

from fleet_tui.loopback_guard import sendable_token

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
TOKEN_ENV_VAR = "FLEET_TUI_LOCAL_TOKEN"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    serve = actions.add_parser("serve", help="serve the host on 127.0.0.1 until Ctrl+C")
    serve.add_argument(
        "--port", type=port_number, default=0, help="port to listen on (default: a free one)"
    )
    serve.add_argument(
        "--token",
        type=token_text,
        default=os.environ.get(TOKEN_ENV_VAR) or None,
        help=f"the API key clients must send (default: ${TOKEN_ENV_VAR}, else a random one)",
    )


def port_number(text: str) -> int:
    """A TCP port (0 picks a free one), for argparse."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535)")
    return port


def token_text(text: str) -> str:
    """A token clients can send in a header (visible ASCII, no spaces), for argparse."""
    if not sendable_token(text):
        raise argparse.ArgumentTypeError("a token is visible ASCII characters without spaces")
    return text


def run(args: argparse.Namespace) -> int:
    from fleet_tui.envs.base import EnvError
    from fleet_tui.local.runner import HOST, make_server
    from fleet_tui.loopback_guard import new_token

    token = args.token or new_token()
    try:
        server, sock, _registry = make_server(args.port, token)
    except OSError as error:
        raise EnvError(f"cannot listen on {HOST}:{args.port}: {error.strerror}") from error

    def request_stop(*_: object) -> None:
        server.should_exit = True

    # uvicorn stops gracefully on these signals and then re-raises them: they land here, so a
    # requested stop (even one arriving before uvicorn listens for it) exits 0.
    previous = {number: signal.signal(number, request_stop) for number in STOP_SIGNALS}
    print(f"FLEET_BASE_URL=http://{HOST}:{sock.getsockname()[1]}", flush=True)
    print(f"FLEET_API_KEY={token}", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    print("fleet-tui: local host stopped", file=sys.stderr)
    return 0
