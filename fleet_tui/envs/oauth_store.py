"""Where OAuth sign-ins are kept: one JSON file per MCP server URL, for its owner only (0600 in
a 0700 folder), in `$XDG_STATE_HOME/fleet-tui/oauth/` (or ~/.local/state/fleet-tui/oauth/).

A file holds the server's URL, the tokens it issued (and when the access token expires, so a
later run refreshes it rather than asking the person again) and the client registration it made
for fleet-tui. `TokenFile` is the mcp SDK's `TokenStorage` over one such file; deleting the file
(`fleet-tui logout URL`) makes the next connection sign in again. Token values read or written
here are remembered as secrets (`fleet_tui.text.remember_secret_values`), so they are hidden
wherever text is shown or recorded.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fleet_tui.private_files import make_private_dir, state_dir, write_private
from fleet_tui.text import describe_error, remember_secret_values

if TYPE_CHECKING:
    from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

MAX_FILE_BYTES = 1024 * 1024
"""A sign-in file larger than this is not read (it is not one fleet-tui wrote)."""


def sign_ins_dir() -> Path:
    return state_dir() / "oauth"


def sign_in_file(server_url: str) -> Path:
    """The file keeping the sign-in to the MCP server at `server_url`."""
    digest = hashlib.sha256(server_url.encode()).hexdigest()[:32]
    return sign_ins_dir() / f"{digest}.json"


def forget(server_url: str) -> bool:
    """Delete the sign-in to `server_url`; whether there was one."""
    try:
        sign_in_file(server_url).unlink()
    except FileNotFoundError:
        return False
    return True


def forget_all() -> list[str]:
    """Delete every kept sign-in, readable or not; the server URL of each (or its file's name
    when the file does not say)."""
    forgotten = []
    for path in sorted(sign_ins_dir().glob("*.json")):
        url = _read(path).get("server_url")
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        forgotten.append(url if isinstance(url, str) else path.name)
    return forgotten


def _read(path: Path) -> dict[str, Any]:
    """The file's JSON object; an empty one when it is missing, too large or not fleet-tui's."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_FILE_BYTES else None
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class TokenFile:
    """The mcp SDK's `TokenStorage` for one server, kept in `sign_in_file(server_url)`."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.path = sign_in_file(server_url)
        self.warning: str | None = None
        """Why the sign-in is not kept for the next run, once writing it failed."""

    async def get_tokens(self) -> OAuthToken | None:
        from mcp.shared.auth import OAuthToken

        tokens = self._field("tokens", OAuthToken)
        if tokens is not None:
            remember_secret_values([tokens.access_token, tokens.refresh_token or ""])
        return tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        from mcp.shared.auth_utils import calculate_token_expiry

        remember_secret_values([tokens.access_token, tokens.refresh_token or ""])
        self._store(
            "tokens",
            tokens.model_dump(mode="json", exclude_none=True),
            expires_at=calculate_token_expiry(tokens.expires_in),
        )

    def expires_at(self) -> float | None:
        """When the stored access token expires (seconds since the epoch), if it was said."""
        value = self._own().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        from mcp.shared.auth import OAuthClientInformationFull

        client = self._field("client", OAuthClientInformationFull)
        if client is not None and client.client_secret:
            remember_secret_values([client.client_secret])
        return client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        if client_info.client_secret:
            remember_secret_values([client_info.client_secret])
        self._store("client", client_info.model_dump(mode="json", exclude_none=True))

    def _own(self) -> dict[str, Any]:
        """The file's content if it is this server's (a hash collision is not)."""
        data = _read(self.path)
        return data if data.get("server_url") == self.server_url else {}

    def _field(self, name: str, model: Any) -> Any:
        value = self._own().get(name)
        if value is None:
            return None
        try:
            return model.model_validate(value)
        except ValueError:  # pydantic's ValidationError: a file from another version
            return None

    def _store(self, name: str, value: dict[str, Any], **also: Any) -> None:
        self._write({**self._own(), "server_url": self.server_url, name: value, **also})

    def _write(self, data: dict[str, Any]) -> None:
        """Keep `data`; a folder that cannot be written leaves the sign-in in memory only,
        said once in `warning`."""
        try:
            make_private_dir(self.path.parent)
            write_private(self.path, json.dumps(data, indent=2).encode())
        except OSError as error:
            self.warning = self.warning or f"sign-in not kept: {describe_error(error)}"
