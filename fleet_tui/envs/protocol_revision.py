"""Which MCP protocol revision a connection speaks.

By default the `initialize` handshake (2025-11-25), which every feature is built on. With
`--protocol latest` a connection first asks `server/discover` for the newest revision the mcp
SDK speaks (2026-07-28) and falls back to the handshake when the server does not answer it:
the SDK's own policy (`negotiate_auto`, what its `Client(mode="auto")` runs). On that
revision the log level goes with each request (`level_on_modern`); what it removed and
fleet-tui does not yet replace is refused in plain words (`refuse_if_modern`). The choice is
made once per command or app run (`speaking`), so every endpoint, the ones that connect later
included, speaks it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING

from fleet_tui.envs.errors import EnvError

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

PROTOCOLS = ("handshake", "latest")
"""`--protocol`'s values: the initialize handshake, or the newest revision when offered."""
DEFAULT_PROTOCOL = "handshake"

_chosen: ContextVar[str] = ContextVar("protocol", default=DEFAULT_PROTOCOL)


@contextlib.contextmanager
def speaking(protocol: str) -> Iterator[None]:
    """Connections opened in this block negotiate `protocol` (one of PROTOCOLS)."""
    if protocol not in PROTOCOLS:
        raise EnvError(f"--protocol {protocol!r}: choose one of {', '.join(PROTOCOLS)}")
    token = _chosen.set(protocol)
    try:
        yield
    finally:
        _chosen.reset(token)


async def negotiate(session: ClientSession) -> None:
    """Open `session` on the chosen revision: its `protocol_version` says which it got."""
    if _chosen.get() == "latest":
        from mcp.client._probe import negotiate_auto

        await negotiate_auto(session)
    else:
        await session.initialize()


async def level_on_modern(session: ClientSession, level: str) -> None:
    """Keep `level` on a 2026-07-28 `session`, which has no logging/setLevel: its log level
    goes with each request, and is the one it opened with (`ClientHandlers.session_options`).
    Another level is refused in plain words until the session is opened again."""
    opened_with = session._log_level  # the SDK keeps it for its requests' _meta, unexposed
    if level != opened_with:
        raise EnvError(
            f"changing the log level is not on protocol {session.protocol_version} in "
            f"fleet-tui yet: the level goes with each request, set when connecting "
            f"({opened_with or 'none, so no log messages'}); reconnect to use {level}"
        )


def is_modern(version: str | None) -> bool:
    """Whether a connection on `version` speaks a revision negotiated by `server/discover`
    (2026-07-28 and later), rather than the handshake's."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    return version in MODERN_PROTOCOL_VERSIONS


def refuse_if_modern(feature: str, version: str | None) -> None:
    """EnvError in plain words when a connection on `version` cannot have `feature`: its
    revision removed it and fleet-tui does not yet speak what replaced it."""
    if is_modern(version):
        raise EnvError(
            f"{feature} is not on protocol {version} in fleet-tui yet "
            "(--protocol handshake speaks it)"
        )
