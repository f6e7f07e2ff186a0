"""`EnvError`, the error a user reads; which transport errors are worth trying again (their
text: `fleet_tui.text.describe_error`). Light to import: `fleet-tui --help` loads it."""

from __future__ import annotations

from fleet_tui.text import PlainError, http_status, leaf_errors


class EnvError(PlainError):
    """Something went wrong reaching or driving an environment; the message is for the user.

    `exit_code` follows the CLI contract: 1 for a tool or verifier failure, 2 for usage,
    connection or provisioning errors.
    """

    def __init__(self, message: str, *, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


MCP_TRANSIENT_CODES = (-32000, -32603)
"""mcp's codes for a lost connection (CONNECTION_CLOSED) and for an HTTP error status other
than 404 (INTERNAL_ERROR: a gateway's 502/503 while an instance starts, among others)."""


def is_retryable(error: BaseException) -> bool:
    """False when trying again cannot help: the server answered with a client error (HTTP 4xx)
    or with an MCP error that is not transient (a 404, a protocol error), or the error says so
    (`retryable = False`: a sign-in that failed)."""
    if isinstance(error.__cause__, BaseException) and error.__cause__ is not error:
        return is_retryable(error.__cause__)
    for leaf in leaf_errors(error):
        if getattr(leaf, "retryable", True) is False:
            return False
        status = http_status(leaf)
        if status is not None and 400 <= status < 500 and status not in (408, 429):
            return False
        code = getattr(leaf, "code", None)
        if type(leaf).__name__ == "MCPError" and code not in MCP_TRANSIENT_CODES:
            return False
    return True
