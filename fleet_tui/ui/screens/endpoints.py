"""The env's MCP endpoints: how each is reached and how it is, what its server said about
itself (name, version, protocol, capabilities, its instructions for the agent), what a stdio
server wrote on stderr (its last lines); and the roots offered to servers, which can be
changed here. The servers' text is shown literally: never parsed as markup, each character
that would not show as itself shown as a sign."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EndpointStatus
from fleet_tui.envs.endpoint_info import endpoint_rows
from fleet_tui.envs.server_info import cut_note
from fleet_tui.text import visible
from fleet_tui.ui.keymap import bindings_for
from fleet_tui.ui.widgets.roots_editor import RootsEditor
from fleet_tui.ui.widgets.status_bar import ENDPOINT_STYLES


def endpoint_title(endpoint: EndpointStatus) -> Text:
    mark, style = ENDPOINT_STYLES.get(endpoint.state, ("?", ""))
    return Text.assemble((f"{mark} ", style), (visible(endpoint.url), "bold"))


def rows_table(endpoint: EndpointStatus) -> Table:
    """Its rows (connection, server, title, website, protocol, capabilities), values wrapped
    in their own column."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    for label, value in endpoint_rows(endpoint):
        table.add_row(label, Text(visible(value), style="red" if label == "Error" else ""))
    return table


def lines_text(lines: list[str]) -> Text:
    return Text("\n".join(visible(line) for line in lines))


def endpoint_parts(endpoint: EndpointStatus) -> list[Static]:
    """One endpoint: its name, its rows, its instructions and its stderr."""
    parts = [Static(endpoint_title(endpoint)), Static(rows_table(endpoint), classes="info-rows")]
    if (info := endpoint.server) is not None:
        parts.append(Static("Instructions", classes="info-label"))
        instructions = lines_text((info.instructions or "(none)").splitlines())
        if (note := cut_note(info)) is not None:
            instructions.append(f"\n{note}", style="yellow")
        parts.append(Static(instructions, classes="info-text"))
    if endpoint.transport == "stdio":
        parts.append(Static("stderr", classes="info-label"))
        parts.append(Static(lines_text(endpoint.output or ["(nothing yet)"]), classes="info-text"))
    return parts


class EndpointsScreen(ModalScreen[None]):
    """A modal view of the endpoints as they were when it opened and of the roots offered;
    esc closes it."""

    HELP_AREA = "info"
    BINDINGS = [
        *bindings_for("info"),
        Binding("q", "dismiss", "Close", show=False),
        Binding("f1", "app.help", "Help", show=False),  # a modal screen hides the app's keys
    ]

    def __init__(self, endpoints: list[EndpointStatus], controller: SessionController) -> None:
        super().__init__()
        self.endpoints = endpoints
        self.controller = controller

    def compose(self) -> ComposeResult:
        with Vertical(id="info-box") as box:
            box.border_title = "MCP endpoints"
            box.border_subtitle = "e add a root · del remove the highlighted one · esc close"
            with VerticalScroll(id="info-endpoints"):
                if not self.endpoints:
                    yield Static("This env has no MCP endpoints open.")
                for endpoint in self.endpoints:
                    with Vertical(classes="info-endpoint"):
                        yield from endpoint_parts(endpoint)
            yield Static("Roots offered to servers", classes="info-heading")
            yield RootsEditor(self.controller)

    def action_edit_roots(self) -> None:
        self.query_one(RootsEditor).focus_input()

    def action_remove_root(self) -> None:
        self.query_one(RootsEditor).remove_highlighted()
