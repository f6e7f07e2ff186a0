"""Text helpers for every layer, the bottom one: it imports nothing from fleet_tui.

Secrets stay out of what is shown, printed and recorded: API keys, bearer tokens, anything named
like a secret.
"""

from __future__ import annotations

import os
import re
from typing import Any

REDACTED = "[redacted]"

SECRET_NAME = re.compile(
    r"(api|access|secret|private|auth|client)[-_]?key|token|secret|passw|authori[sz]ation"
    r"|cookie|credential",
    re.I,
)
"""Argument and header names whose values are never written. Names like `issue_key`,
`project_key` or a bare `key` (a key to press) are ordinary data an env needs on replay."""

BEARER = re.compile(r"(Bearer\s+)[A-Za-z0-9._~+/=-]+", re.I)

SECRET_ENV_VARS = ("FLEET_API_KEY",)

_given_secrets: set[str] = set()
"""Values of secret-named `--env` variables given to this process (see `remember_secrets`)."""


def remember_secrets(variables: dict[str, str]) -> None:
    """Treat the values of the secret-named `variables` (`--env API_TOKEN=...` for an env) as
    FLEET_API_KEY's: hidden wherever env text is shown, printed or recorded."""
    _given_secrets.update(
        value for name, value in variables.items() if SECRET_NAME.search(name) and len(value) >= 4
    )


def _secret_values() -> list[str]:
    known = [v for name in SECRET_ENV_VARS if len(v := os.environ.get(name, "")) >= 4]
    return known + sorted(_given_secrets)


def hide_secret_values(text: str) -> str:
    """`text` with the secret values (FLEET_API_KEY's, `remember_secrets`) replaced; values
    under 8 characters (a placeholder like `local`) are left alone, as ordinary words."""
    for secret in _secret_values():
        if len(secret) >= 8:
            text = text.replace(secret, REDACTED)
    return text


def redact(value: Any, secrets: list[str] | None = None) -> Any:
    """A copy of a JSON-like value with secret-named fields and known secret values removed."""
    secrets = _secret_values() if secrets is None else secrets
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and SECRET_NAME.search(k) and isinstance(v, str) and v
            else redact(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact(v, secrets) for v in value]
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, REDACTED)
        return BEARER.sub(r"\1" + REDACTED, value)
    return value
