"""The command palette: every named action, plus "Call tool …" for each tool.

Entries come from `FleetTuiApp.palette_entries()`; titles are shown literally (tool names from an
env may contain Rich markup, which Textual's own provider would parse).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.fuzzy import FuzzySearch
from textual.markup import escape

from fleet_tui.ui.safe_text import one_line

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True)
class PaletteEntry:
    title: str
    help: str
    run: Callable[[], Any]


def _help(entry: PaletteEntry) -> str:
    """Help text is parsed as markup by the palette: escape it."""
    return escape(one_line(entry.help, 120))


def highlighted(title: str, offsets: list[int] | tuple[int, ...]) -> Text:
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
            yield DiscoveryHit(Text(entry.title), entry.run, text=entry.title, help=_help(entry))

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
                    help=_help(entry),
                )
