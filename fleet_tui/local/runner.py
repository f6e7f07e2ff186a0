"""Run the local host: `start_local_host()` on a daemon thread, or `serve()` in the foreground."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field

import uvicorn

from fleet_tui.local.app import build_app
from fleet_tui.local.registry import Registry
from fleet_tui.local.verifiers import StartPool, spawn_pool
from fleet_tui.loopback_guard import HOST, loopback_socket, new_token


class HostServer(uvicorn.Server):
    """uvicorn, stopping every instance first: that ends their MCP streams, which uvicorn
    would otherwise wait on before it can exit."""

    def __init__(self, config: uvicorn.Config, registry: Registry) -> None:
        super().__init__(config)
        self.registry = registry

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.registry.stop_all()
        await super().shutdown(sockets)


def make_server(port: int, token: str, **options) -> tuple[uvicorn.Server, socket.socket, Registry]:
    """A uvicorn server for the host, bound to 127.0.0.1:`port` (0 picks a free port), that
    answers only requests carrying `token`."""
    app, registry = build_app(token=token, **options)
    # log_config=None: uvicorn leaves logging alone (its own setup prints to stderr, which
    # would paint over a terminal UI); its loggers propagate to whatever the process set up.
    config = uvicorn.Config(
        app,
        log_config=None,
        log_level="warning",
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    return HostServer(config, registry), loopback_socket(port), registry


@dataclass
class LocalHost:
    """A running local host. `base_url` is the value for FLEET_BASE_URL, `token` the API key
    it requires (FLEET_API_KEY)."""

    base_url: str
    token: str = field(repr=False)
    registry: Registry
    _server: uvicorn.Server
    _thread: threading.Thread

    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1])

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 10) -> None:
        """Stop every instance and the server; returns when the thread ended."""
        self._server.should_exit = True
        self._thread.join(timeout)


def start_local_host(
    port: int = 0,
    *,
    token: str | None = None,
    sweep_interval: float = 0.5,
    start_pool: StartPool = spawn_pool,
) -> LocalHost:
    """Start the host on a daemon thread; returns once it accepts connections. Without a
    `token` it makes a random one. `start_pool`: how its verifier pool process starts."""
    token = token or new_token()
    server, sock, registry = make_server(
        port, token, sweep_interval=sweep_interval, start_pool=start_pool
    )
    errors: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as error:  # reported to the caller below
            errors.append(error)

    thread = threading.Thread(target=run, name="fleet-tui-local-host", daemon=True)
    thread.start()
    while not server.started:
        if errors or not thread.is_alive():
            raise RuntimeError(f"the local Fleet host did not start: {errors or 'it exited'}")
        time.sleep(0.01)
    bound_port = sock.getsockname()[1]
    return LocalHost(f"http://{HOST}:{bound_port}", token, registry, server, thread)
