"""The token an OpenEnv server started by `fleet-tui openenv serve` asks for, and where the
client finds it.

`openenv serve` keeps the token of the server it starts in a file for its owner only
(`$XDG_STATE_HOME/fleet-tui/openenv-serve/PORT`, removed when the server stops), so fleet-tui's
own commands and app, run by the same person, send it to a server on that loopback port without
being told. A token given (the target's, else `$FLEET_TUI_OPENENV_TOKEN`) goes first: another
server, or one started elsewhere. Every token found is remembered as a secret
(`fleet_tui.text.remember_secret_values`), so it is hidden wherever text is shown or recorded.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from fleet_tui.envs.errors import EnvError
from fleet_tui.loopback_guard import sendable_token
from fleet_tui.private_files import make_private_dir, state_dir, write_private
from fleet_tui.text import remember_secret_values

TOKEN_ENV_VAR = "FLEET_TUI_OPENENV_TOKEN"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
MAX_TOKEN_BYTES = 4096
"""A kept file larger than this is not read (it is not one fleet-tui wrote)."""


def kept_tokens_dir() -> Path:
    return state_dir() / "openenv-serve"


def keep_token(port: int, token: str) -> Path:
    """Keep `token` as the one of the server on 127.0.0.1:`port`; the file it is kept in."""
    folder = kept_tokens_dir()
    make_private_dir(folder)
    path = folder / str(port)
    write_private(path, token.encode())
    return path


def server_token(given: str | None, base_url: str) -> str | None:
    """The token to send to the OpenEnv server at `base_url`: `given`, else
    `$FLEET_TUI_OPENENV_TOKEN`, else the one kept for its loopback port; None without one."""
    token = given or os.environ.get(TOKEN_ENV_VAR) or kept_token(base_url)
    if not token:
        return None
    remember_secret_values([token])
    if not sendable_token(token):
        raise EnvError("the OpenEnv token is not visible ASCII characters without spaces")
    return token


def kept_token(base_url: str) -> str | None:
    """The token `openenv serve` keeps for the loopback port of `base_url`, if any."""
    parts = urlsplit(base_url)
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.hostname not in LOOPBACK_HOSTS or port is None:
        return None
    path = kept_tokens_dir() / str(port)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_TOKEN_BYTES + 1)
    except OSError:
        return None
    token = data.decode("ascii", "replace").strip()
    return token if len(data) <= MAX_TOKEN_BYTES and sendable_token(token) else None
