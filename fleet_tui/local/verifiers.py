"""The verifier API (`/v1/verifiers/...`); its routes are added next."""

from starlette.routing import Route

from fleet_tui.local.registry import Registry


def routes(registry: Registry) -> list[Route]:
    return []
