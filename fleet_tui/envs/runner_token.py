"""The Fleet runner token, resolved once per Fleet client rather than once per env.

fleet-python sends `X-Runner-Token` on an instance's calls and resolves it once per env
(`AsyncEnv`), each time through a new HTTP client whose TLS context loads the CA bundle (~20 ms
of CPU, even for the plain-HTTP local host): a fair part of checking a task. `share_runner_token`
gives every env opened through one client a single resolution, made over an HTTP client that
uses the TLS context the MCP endpoints share.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING

import httpx
from fleet.runner_auth import RunnerTokenProvider, _token_from_env, _token_from_payload

from fleet_tui.envs.mcp_preload import shared_ssl_context

if TYPE_CHECKING:
    import fleet

FETCH_TIMEOUT_S = 10.0
"""The SDK's own limit on the token request: a slow answer must not stall the instance call."""


class SharedRunnerToken(RunnerTokenProvider):
    """The SDK's provider (same sources, same soft failures: no token means no header), asked
    by many envs at once: the first resolves, the others wait for its answer."""

    _token: str | None
    _resolved: bool
    """The SDK's own resolution state, kept: the sync `token()` sees the same answer."""

    def __init__(self, auth_source) -> None:
        super().__init__(auth_source)
        self._resolving = asyncio.Lock()

    async def token_async(self) -> str | None:
        """The token, fetched once for every env (the first asks, the others wait)."""
        async with self._resolving:
            if not self._resolved:
                self._token = await self._fetch()
                self._resolved = True
        return self._token

    async def _fetch(self) -> str | None:
        env_token = _token_from_env()
        if env_token:
            return env_token
        endpoint, headers = self._endpoint(), self._headers()
        if not endpoint or not headers:
            return None
        try:
            async with httpx.AsyncClient(
                timeout=FETCH_TIMEOUT_S, verify=shared_ssl_context()
            ) as client:
                response = await client.get(endpoint, headers=headers)
            return _token_from_payload(response.json()) if response.status_code == 200 else None
        except Exception:  # soft, as in the SDK: the call goes out without the header
            return None


_shared: weakref.WeakKeyDictionary[object, SharedRunnerToken] = weakref.WeakKeyDictionary()


def share_runner_token(sdk_env: fleet.AsyncEnv) -> None:
    """Have `sdk_env` use its Fleet client's one runner-token resolution. Call it before the
    env's first instance call (the SDK makes its own provider then)."""
    wrapper = sdk_env._client
    if wrapper is None:
        return
    provider = _shared.get(wrapper)
    if provider is None:
        provider = _shared[wrapper] = SharedRunnerToken(wrapper)
    sdk_env._runner_token_provider = provider
