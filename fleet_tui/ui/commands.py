"""The command palette: every named action, plus "Call tool …" for each tool.

Entries come from `FleetTuiApp.palette_entries()`. Titles and help come from the env (a tool's
name and description) and are handed to the palette as Text and Content, never as strings: the
palette parses strings as markup, and escaping cannot save a tag left open or cut at the help's
length.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import FuzzySearch

from fleet_tui.text import one_line

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True)
class PaletteEntry:
    title: str
    help: str
    run: Callable[[], Any]


def _help(entry: PaletteEntry) -> Content:
    """The help line, literal (the palette takes Content as it is)."""
    return Content(one_line(entry.help, 120))


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
