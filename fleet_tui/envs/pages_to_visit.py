"""A call a server refuses until the person opens a page: MCP's URL elicitation asked through
the error -32042 (`URLElicitationRequiredError`), whose data lists the pages and why. The
pages are read from that data, and the error's text names them, so the URL reaches the person
(headless: printed with the result; the app: a dialog to copy or open it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fleet_tui.text import one_line

if TYPE_CHECKING:  # the env's models: the app's first frame draws without them
    from fleet_tui.envs.base import ToolResult

URL_ELICITATION_REQUIRED = -32042
"""The JSON-RPC error code of a request that needs URL elicitations first."""
MAX_PAGES = 10
"""Pages kept from one error; a server listing more is cut."""
MAX_URL_CHARS = 4_000
MAX_MESSAGE_CHARS = 500


@dataclass(frozen=True)
class PageToVisit:
    """A page the server asks the person to open, and the server's reason."""

    url: str
    message: str


def pages_to_visit(code: int, data: Any) -> list[PageToVisit]:
    """The pages a JSON-RPC error asks the person to open (none unless its code is -32042);
    entries without a URL are skipped."""
    if code != URL_ELICITATION_REQUIRED or not isinstance(data, dict):
        return []
    listed = data.get("elicitations")
    entries = [e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else []
    return [
        PageToVisit(
            url=one_line(entry["url"], MAX_URL_CHARS),
            message=one_line(str(entry.get("message") or ""), MAX_MESSAGE_CHARS),
        )
        for entry in entries
        if isinstance(entry.get("url"), str) and entry["url"].strip()
    ][:MAX_PAGES]


def pages_of(result: ToolResult) -> list[PageToVisit]:
    """The pages a failed call's error answer asks to open (kept in `result.raw`)."""
    error = result.raw.get("error") if isinstance(result.raw, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("code"), int):
        return []
    return pages_to_visit(error["code"], error.get("data"))


def refused_text(message: str, pages: list[PageToVisit]) -> str:
    """The error's message, then each page to open and why."""
    if not pages:
        return message
    lines = [message, "Open this page in a browser, then call again:"]
    lines += [f"  {page.url}" + (f"  ({page.message})" if page.message else "") for page in pages]
    return "\n".join(lines)
