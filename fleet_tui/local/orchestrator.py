"""The orchestrator API (`/v1/...`): envs, instances, heartbeats, the runner token."""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from fleet_tui.local.envs import ENVS
from fleet_tui.local.registry import HostError, Registry, iso_time


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (an empty body counts as `{}`)."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = await request.json()
    except ValueError as error:
        raise HostError(400, f"the request body is not JSON: {error}") from error
    if not isinstance(body, dict):
        raise HostError(400, "the request body must be a JSON object")
    return body


def routes(registry: Registry, token: str) -> list[Route]:
    async def list_envs(request: Request) -> JSONResponse:
        return JSONResponse([spec.describe() for spec in ENVS.values()])

    async def get_env(request: Request) -> JSONResponse:
        key = request.path_params["env_key"]
        if key not in ENVS:
            raise HostError(404, f"Environment '{key}' not found")
        return JSONResponse(ENVS[key].describe())

    async def regions(request: Request) -> JSONResponse:
        return JSONResponse(["local"])

    async def create_instance(request: Request) -> JSONResponse:
        instance = await registry.create(await json_body(request))
        return JSONResponse(instance.to_json(base_url(request)))

    async def list_instances(request: Request) -> JSONResponse:
        filters = {name: request.query_params.get(name) for name in ("status", "region", "run_id")}
        found = [
            instance.to_json(base_url(request))
            for instance in registry.instances.values()
            if all(
                value is None or getattr(instance, name) == value for name, value in filters.items()
            )
        ]
        return JSONResponse(found)

    async def get_instance(request: Request) -> JSONResponse:
        instance = registry.get(request.path_params["instance_id"])
        return JSONResponse(instance.to_json(base_url(request)))

    async def delete_instance(request: Request) -> JSONResponse:
        instance = registry.stop(registry.get(request.path_params["instance_id"]))
        return JSONResponse(instance.to_json(base_url(request)))

    async def delete_batch(request: Request) -> JSONResponse:
        run_id = request.query_params.get("run_id")
        profile_id = request.query_params.get("profile_id")
        if not (run_id or profile_id):
            raise HostError(400, "give run_id or profile_id")
        chosen = [
            registry.stop(instance)
            for instance in list(registry.instances.values())
            if instance.running and (run_id is None or instance.run_id == run_id)
        ]
        return JSONResponse([instance.to_json(base_url(request)) for instance in chosen])

    async def heartbeat(request: Request) -> JSONResponse:
        instance = registry.running(request.path_params["instance_id"])
        await json_body(request)
        enabled = bool(instance.heartbeat_interval)
        if enabled:
            instance.last_heartbeat = time.time()
        return JSONResponse(
            {
                "success": True,
                "instance_id": instance.instance_id,
                "last_heartbeat": iso_time(instance.last_heartbeat) if enabled else None,
                "deadline_timestamp": instance.deadline(),
                "interval_seconds": instance.heartbeat_interval,
            }
        )

    async def runner_token(request: Request) -> JSONResponse:
        # The SDK sends this back as X-Runner-Token on instance calls (which carry no
        # Authorization header): the host's own token, which the caller already holds.
        return JSONResponse({"token": token})

    return [
        Route("/v1/env/", list_envs, methods=["GET"]),
        Route("/v1/env", list_envs, methods=["GET"]),
        Route("/v1/regions", regions, methods=["GET"]),
        Route("/v1/runner-auth/token", runner_token, methods=["GET"]),
        Route("/v1/env/instances", create_instance, methods=["POST"]),
        Route("/v1/env/instances", list_instances, methods=["GET"]),
        Route("/v1/env/instances/batch", delete_batch, methods=["DELETE"]),
        Route("/v1/env/instances/{instance_id}", get_instance, methods=["GET"]),
        Route("/v1/env/instances/{instance_id}", delete_instance, methods=["DELETE"]),
        Route("/v1/env/instances/{instance_id}/heartbeat", heartbeat, methods=["POST"]),
        Route("/v1/env/{env_key}", get_env, methods=["GET"]),
    ]
