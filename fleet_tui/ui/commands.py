"""The command palette: every named action that does something here, "Call tool …" for each
tool, then Textual's own commands (theme, keys, screenshot) but its Quit and Maximize (fleet-tui's
quit closes what it created; ctrl+z zooms).

`palette_entries` makes the entries the app offers. Titles and help come from the env (a tool's
name and description) and are handed to the palette as Text and Content, never as strings: the
palette parses strings as markup, and escaping cannot save a tag left open or cut at the help's
length.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import FuzzySearch

from fleet_tui.text import one_line, visible
from fleet_tui.ui.keymap import AREAS, Action, key_label, palette_actions

if TYPE_CHECKING:  # the env's models load after the first frame
    from fleet_tui.envs.base import Tool

AREA_WIDGETS = (
    "FilterInput, ToolList, ToolPanel, ResultView, HistoryTable, ScreenshotPane, HeldCalls, "
    "ResourcesPane, PromptsPane, TrajectorySteps"
)


@dataclass(frozen=True)
class PaletteEntry:
    title: str
    help: str
    run: Callable[[], Any]


LEFT_OUT_SYSTEM_COMMANDS = {"Quit", "Maximize", "Minimize"}


def palette_entries(
    app: App[Any],
    tools: list[Tool],
    open_tool: Callable[[str], Any],
    offered: Callable[[Action], bool] = lambda action: True,
) -> list[PaletteEntry]:
    """The app's actions `offered` and those of the areas on screen, then "Call tool NAME"
    for each tool (`open_tool(name)` opens its form), then Textual's commands."""
    areas = {
        getattr(widget, "HELP_AREA", ""): widget
        for widget in app.query(AREA_WIDGETS)
        if widget.display
    }
    entries = []
    for action in palette_actions():
        target = app if action.area == "global" else areas.get(action.area)
        if target is None or not offered(action):
            continue
        title = action.description
        if action.area != "global":
            title = f"{AREAS[action.area]}: {title[0].lower()}{title[1:]}"
        run = partial(app.run_action, action.name, default_namespace=target)
        key = f"key {key_label(action.key)}" if action.key else ""
        entries.append(PaletteEntry(title, key, run))
    for tool in tools:
        title = f"Call tool {visible(tool.name)}"
        entries.append(PaletteEntry(title, tool.description, partial(open_tool, tool.name)))
    for command in app.get_system_commands(app.screen):
        if command.title not in LEFT_OUT_SYSTEM_COMMANDS:
            entries.append(PaletteEntry(command.title, command.help, command.callback))
    return entries


def _help(entry: PaletteEntry) -> Content:
    """The help line, literal (the palette takes Content as it is)."""
    return Content(one_line(entry.help, 120))


def highlighted(title: str, offsets: Sequence[int]) -> Text:
    text = Text(one_line(title, 120))
    for offset in offsets:
        text.stylize("bold underline", offset, offset + 1)
    return text


class FleetCommands(Provider):
    """Fuzzy search over the app's palette entries."""

    def _entries(self) -> list[PaletteEntry]:
        return list(self.app.palette_entries())  # type: ignore[attr-defined]

    async def discover(self) -> Hits:
        for entry in self._entries():
            yield DiscoveryHit(
                highlighted(entry.title, ()),
                entry.run,
                text=entry.title,
                help=_help(entry),  # type: ignore[arg-type]
            )

    async def search(self, query: str) -> Hits:
        search = FuzzySearch()
        for entry in self._entries():
            score, offsets = search.match(query, entry.title)
            if score:
                yield Hit(
                    score,
                    highlighted(entry.title, offsets),
                    entry.run,
                    text=entry.title,
                    help=_help(entry),  # type: ignore[arg-type]
                )
