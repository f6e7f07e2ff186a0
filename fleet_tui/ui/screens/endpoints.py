"""The env's MCP endpoints, how each is reached and how it is, and what a stdio server wrote
on stderr (its last lines)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from fleet_tui.envs.base import EndpointStatus
from fleet_tui.text import clean
from fleet_tui.ui.widgets.status_bar import ENDPOINT_STYLES

TRANSPORTS = {"http": "streamable HTTP", "sse": "SSE", "stdio": "stdio"}


def endpoint_text(endpoint: EndpointStatus) -> Text:
    """One endpoint: its mark and name, transport, state and tools, its error, its stderr."""
    mark, style = ENDPOINT_STYLES.get(endpoint.state, ("?", ""))
    text = Text(f"{mark} ", style=style)
    text.append(clean(endpoint.url), style="bold")
    details = f"{TRANSPORTS[endpoint.transport]} · {endpoint.state.value}"
    text.append(f"\n  {details} · {endpoint.tool_count} tools", style="dim")
    if endpoint.error:
        text.append(f"\n  {clean(endpoint.error)}", style="red")
    if endpoint.transport == "stdio":
        text.append("\n  stderr:", style="dim")
        for line in endpoint.output or ["(nothing yet)"]:
            text.append(f"\n    {clean(line)}")
    return text


class EndpointsScreen(ModalScreen[None]):
    """A modal view of the endpoints as they were when it opened; esc or q closes it."""

    BINDINGS = [Binding("escape,q", "dismiss", "Close")]

    def __init__(self, endpoints: list[EndpointStatus]) -> None:
        super().__init__()
        self.endpoints = endpoints

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "MCP endpoints"
            if not self.endpoints:
                yield Static("This env has no MCP endpoints open.")
                return
            texts = [endpoint_text(endpoint) for endpoint in self.endpoints]
            yield Static(Group(*(part for text in texts for part in (text, Text()))))
