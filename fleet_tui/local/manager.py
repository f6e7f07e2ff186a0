"""The per-instance manager API, under `{root}api/v1/env` (the SDK's `urls.manager.api`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from fleet_tui.local.clock import format_time
from fleet_tui.local.envs import MCP_PATHS
from fleet_tui.local.orchestrator import json_body
from fleet_tui.local.registry import HostError, Instance, Registry
from fleet_tui.local.state import InstanceState, describe, run_query

PREFIX = "/instances/{instance_id}/api/v1/env"
DATABASES = ("current", "seed")
LATEST_TIMESTAMP = 253402300799
"""9999-12-31T23:59:59Z, the last moment a reset's `timestamp` may name."""


def reset_timestamp(body: dict) -> int | None:
    """The reset request's `timestamp` (Unix seconds) where the clock starts, if given."""
    timestamp = body.get("timestamp")
    if timestamp is None:
        return None
    if isinstance(timestamp, bool) or not isinstance(timestamp, int):
        raise HostError(400, "timestamp must be an integer (Unix seconds) or null")
    if not 0 <= timestamp <= LATEST_TIMESTAMP:
        raise HostError(400, f"timestamp must be between 0 and {LATEST_TIMESTAMP}")
    return timestamp


def diff_state(state: InstanceState, ignore: dict) -> dict:
    """fleet-python's own structured diff of seed.db against current.db."""
    from fleet.verifiers.local_executor import diff_dbs

    tables = [table["name"] for table in describe(state, "current")["tables"]]
    table_fields = {
        name: set(fields) for name, fields in (ignore.get("table_fields") or {}).items()
    }
    for name in tables:
        table_fields.setdefault(name, set()).update(ignore.get("fields") or [])
    return diff_dbs(
        str(state.seed_db),
        str(state.current_db),
        ignore_tables=set(ignore.get("tables") or []),
        ignore_table_fields=table_fields,
    )


def routes(registry: Registry) -> list[Route]:
    def instance_of(request: Request) -> Instance:
        return registry.running(request.path_params["instance_id"])

    def state_of(request: Request) -> tuple[InstanceState, str]:
        state = instance_of(request).live_state
        name = request.path_params["name"]
        if name not in DATABASES:
            raise HostError(404, f"No sqlite resource '{name}' (known: {', '.join(DATABASES)})")
        return state, name

    async def index(request: Request) -> JSONResponse:
        """What the instance serves, for a human poking at `urls.root`."""
        instance = instance_of(request)
        root = str(request.url).split("?")[0]
        return JSONResponse(
            {
                "instance_id": instance.instance_id,
                "env_key": instance.spec.key,
                "version": instance.version,
                "mcp": [f"{root}{path}" for path in MCP_PATHS],
                "manager": f"{root}api/v1/env",
            }
        )

    async def health(request: Request) -> JSONResponse:
        instance = instance_of(request)
        return JSONResponse(
            {
                "status": "healthy",
                "timestamp": datetime.now(UTC).isoformat(),
                "service": f"fleet-tui local host: {instance.spec.key}",
            }
        )

    async def resources(request: Request) -> JSONResponse:
        instance_of(request)
        return JSONResponse(
            [
                {"name": "current", "type": "sqlite", "mode": "rw", "label": "current state"},
                {"name": "seed", "type": "sqlite", "mode": "ro", "label": "state after reset"},
            ]
        )

    async def reset(request: Request) -> JSONResponse:
        instance = instance_of(request)
        body = await json_body(request)
        timestamp = reset_timestamp(body)
        await run_in_threadpool(instance.live_state.reset, timestamp)
        instance.updated_at = time.time()
        seed = body.get("seed")
        suffix = f" (seed {seed})" if seed is not None else ""
        if timestamp is not None:
            suffix += f", clock at {format_time(datetime.fromtimestamp(timestamp, UTC))}"
        return JSONResponse(
            {"success": True, "message": f"Reset {instance.spec.key} to its seed state{suffix}"}
        )

    async def query(request: Request) -> JSONResponse:
        state, name = state_of(request)
        body = await json_body(request)
        sql = body.get("query")
        if not isinstance(sql, str) or not sql.strip():
            raise HostError(400, "query must be a non-empty string")
        args = body.get("args")
        if args is not None and not isinstance(args, list | dict):
            raise HostError(400, "args must be a list (or an object of named parameters)")
        read_only = body.get("read_only", True) is not False
        return JSONResponse(await run_in_threadpool(run_query, state, name, sql, args, read_only))

    async def describe_db(request: Request) -> JSONResponse:
        state, name = state_of(request)
        return JSONResponse(await run_in_threadpool(describe, state, name))

    async def structured_diff(request: Request) -> JSONResponse:
        """What changed between the seed and the current database, in the runner's format."""
        state = instance_of(request).live_state
        ignore = (await json_body(request)).get("ignore_config") or {}
        return JSONResponse(await run_in_threadpool(diff_state, state, ignore))

    return [
        Route("/instances/{instance_id}/", index, methods=["GET"]),
        Route(f"{PREFIX}/health", health, methods=["GET"]),
        Route(f"{PREFIX}/diff/structured", structured_diff, methods=["POST"]),
        Route(f"{PREFIX}/resources", resources, methods=["GET"]),
        Route(f"{PREFIX}/reset", reset, methods=["POST"]),
        Route(f"{PREFIX}/resources/sqlite/{{name}}/query", query, methods=["POST"]),
        Route(f"{PREFIX}/resources/sqlite/{{name}}/describe", describe_db, methods=["GET"]),
    ]
