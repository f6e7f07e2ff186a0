"""The local Fleet-compatible host as one ASGI app.

Routes: the orchestrator under `/v1`, each instance under `/instances/{id}/` (manager API at
`api/v1/env`, MCP at `mcp` and `api/v1/mcp`), all behind the loopback guard
(`fleet_tui/loopback_guard.py`): the host runs verifier code, so only its own callers may reach it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from fleet_tui.local import manager, orchestrator, verifiers
from fleet_tui.local.envs import MCP_PATHS
from fleet_tui.local.mcp_mount import McpEndpoint
from fleet_tui.local.registry import HostError, Registry
from fleet_tui.loopback_guard import LoopbackGuard

logger = logging.getLogger(__name__)

CLIENT_CLOSED_REQUEST = 499
"""The status logged for a request its client left before it was read (nginx's)."""
HOST_TOKEN_HINT = "this host needs its token as the API key (`fleet-tui local serve` prints it)"


async def _error(request: Request, error: Exception) -> JSONResponse:
    """The host's refusals, and unknown routes and methods, in Fleet's `{"detail": ...}` shape
    (Starlette calls this only for the two kinds it is registered for)."""
    if isinstance(error, HostError):
        return JSONResponse({"detail": error.detail}, status_code=error.status)
    assert isinstance(error, HTTPException)
    return JSONResponse({"detail": error.detail}, status_code=error.status_code)


async def _client_gone(request: Request, error: Exception) -> Response:
    """A client that went away before its request was read (one of many rapid calls, ended
    early): nobody reads an answer, and it is no fault of the host's to log as one."""
    return Response(status_code=CLIENT_CLOSED_REQUEST)


def build_app(
    *,
    token: str,
    sweep_interval: float = 0.5,
    state_dir: Path | None = None,
    start_pool: verifiers.StartPool = verifiers.spawn_pool,
) -> tuple[ASGIApp, Registry]:
    """The app, answering only requests that carry `token`, and the registry of its instances.
    `start_pool` starts its verifier pool (on first use)."""
    registry = Registry(state_dir)
    pool = verifiers.VerifierPool(registry.state_dir / "verifier-pool.log", start_pool)

    async def sweep_forever() -> None:
        while True:
            await anyio.sleep(sweep_interval)
            for instance in registry.sweep():
                logger.info("stopped %s: %s", instance.instance_id, instance.stop_reason)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as task_group:
            registry.task_group = task_group
            task_group.start_soon(sweep_forever)
            try:
                yield
            finally:
                registry.stop_all()
                await pool.close()
                registry.remove_files()
                task_group.cancel_scope.cancel()

    mcp_routes = [
        Route(
            f"/instances/{{instance_id}}/{path}",
            McpEndpoint(path, registry.mcp_for),
            methods=["GET", "POST", "DELETE"],
        )
        for path in MCP_PATHS
    ]
    app = Starlette(
        routes=[
            *orchestrator.routes(registry, token),
            *verifiers.routes(registry, pool),
            *manager.routes(registry),
            *mcp_routes,
        ],
        exception_handlers={
            HostError: _error,
            HTTPException: _error,
            ClientDisconnect: _client_gone,
        },
        lifespan=lifespan,
    )
    return LoopbackGuard(app, token, HOST_TOKEN_HINT), registry
