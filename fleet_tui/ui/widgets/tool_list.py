"""The union of tools: a fuzzy filter, one line per tool (name, endpoint, description), counts."""

from __future__ import annotations

import asyncio
import posixpath
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from fleet_tui.collector import freeze_what_lives
from fleet_tui.envs.tool_hints import tool_mark
from fleet_tui.text import counted, one_line, shortened, visible
from fleet_tui.ui.fuzzy import FuzzyRanker, Ranking
from fleet_tui.ui.keymap import bindings_for, marks_of
from fleet_tui.ui.widgets.filter_input import FilterInput
from fleet_tui.ui.widgets.no_match import NoMatch
from fleet_tui.ui.widgets.tool_rows import ToolRows

if TYPE_CHECKING:  # the env's models load after the first frame
    from fleet_tui.envs.base import Tool

LONG_LIST = 1000
"""Tool lists this long are kept out of full garbage collections (shorter ones cost them little)."""
SETTLE_STEP = 300
"""Tools scored per step while a ranking settles between other events (about a millisecond)."""
NAME_LIMIT = 120
"""The most of a tool's name a row holds (the row cuts it to its width anyway): a name of
100,000 characters is not styled and measured on every redraw. The form shows it whole."""


def endpoint_labels(urls: list[str]) -> dict[str, str]:
    """Short, distinct names for endpoint URLs: what differs in their paths (`/mcp`,
    `/api/v1/mcp`), prefixed with `host:port` when the hosts differ. A name that is no URL
    (`stdio: /usr/bin/node server.js`) is its own label, its program without its folder."""
    named = {url: one_line(program_label(url), 32) for url in urls if "://" not in url}
    urls = [url for url in urls if url not in named]
    parsed = {url: urlparse(url) for url in urls}
    paths = {url: p.path.rstrip("/") or "/" for url, p in parsed.items()}
    common = posixpath.commonpath(list(paths.values())) if len(urls) > 1 else ""
    common = "" if common == "/" else common
    hosts = {p.netloc for p in parsed.values()}
    labels = {}
    for url in urls:
        rest = paths[url][len(common) :] or paths[url]
        labels[url] = one_line((parsed[url].netloc if len(hosts) > 1 else "") + rest, 32)
    return labels | named


def program_label(name: str) -> str:
    """`stdio: /usr/bin/node server.js` as `stdio: node server.js`."""
    prefix, sep, command = name.partition(": ")
    program, space, rest = command.partition(" ")
    return f"{prefix}{sep}{posixpath.basename(program)}{space}{rest}" if sep else name


def tool_row_height(tool: Tool) -> int:
    """Lines of the tool's row: its name, then its description or why it is broken, if any."""
    return 2 if tool.broken is not None or one_line(tool.description or tool.title or "", 1) else 1


def tool_prompt(tool: Tool, offsets: list[int], endpoint: str, width: int = 34) -> Text:
    """The tool's row: its name (matched letters underlined), endpoint, and a second line."""
    shown = shortened(visible(tool.name), NAME_LIMIT)
    name = Text(shown, style="bold", no_wrap=True, overflow="ellipsis")
    for offset in offsets:
        if offset < len(name):
            name.stylize("underline", offset, offset + 1)
    if mark := tool_mark(tool):
        style = "bold red" if mark == "!" else "bold yellow"
        name = Text.assemble((f"{mark} ", style), name, no_wrap=True, overflow="ellipsis")
    if endpoint:
        name.append(f"  {endpoint}", style="dim cyan")
    if tool.broken is not None:
        name.append("  broken", style="bold red")
        name.append("\n")
        name.append(one_line(tool.broken, width), style="red")
        return name
    description = one_line(tool.description or tool.title or "", width)
    if description:
        name.append("\n")
        name.append(description, style="dim")
    return name


class ToolList(Vertical):
    """Filterable list of tools; posts `ToolList.Chosen` when a tool is chosen."""

    HELP_AREA = "tools"
    BINDINGS = bindings_for("tools")

    class Chosen(Message):
        def __init__(self, tool: Tool) -> None:
            super().__init__()
            self.tool = tool

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tools: list[Tool] = []
        self._ranking = Ranking.everything(0)
        """The tools shown: `order` holds the index in `tools` of each."""
        self._query = ""
        self._drawn_offsets: dict[int, list[int]] = {}
        self._ranker = FuzzyRanker([])
        self._labels: dict[str, str] = {}
        self._heights: list[int] = []

    def compose(self) -> ComposeResult:
        yield FilterInput(placeholder="Filter tools (fuzzy)", id="tool-filter")
        yield NoMatch(id="tool-no-match")
        yield ToolRows(self._row, self._row_key, id="tool-options")
        yield Static("", id="tool-count", markup=False)

    @property
    def rows(self) -> ToolRows:
        return self.query_one(ToolRows)

    def set_tools(self, tools: list[Tool], keep_highlight: bool = False) -> None:
        """Show `tools` (`keep_highlight`: the same tool stays highlighted if still there)."""
        index = self.rows.highlighted
        current = None
        if keep_highlight and index is not None and index < len(self._ranking.matched):
            current = self._shown_at(index).name
        self.tools = list(tools)
        self._ranker = FuzzyRanker(self.tools)
        self._heights = [tool_row_height(tool) for tool in self.tools]
        urls = sorted({t.endpoint for t in self.tools if t.endpoint})
        self._labels = endpoint_labels(urls) if len(urls) > 1 else {}
        marked = any(tool_mark(tool) for tool in self.tools)
        self.rows.tooltip = marks_of("Tool list") if marked else None
        self.rows.forget_drawn()
        self._refill(current)
        if len(self.tools) >= LONG_LIST:
            freeze_what_lives()  # the tools just made live until the next list

    @property
    def shown(self) -> list[Tool]:
        """The tools shown, best match first."""
        if not self._ranking.complete:
            self.rows.settle_rows(self._settle())
        return [self.tools[index] for index in self._ranking.order]

    def _shown_at(self, index: int) -> Tool:
        """The tool of row `index` (a row drawn or highlighted: its place is settled)."""
        return self.tools[self._ranking.order[index]]

    def _row(self, index: int) -> Text:
        tool = self._shown_at(index)
        width = max(16, (self.size.width or 36) - 3)
        return tool_prompt(tool, self._offsets(index), self._labels.get(tool.endpoint, ""), width)

    def _row_key(self, index: int) -> tuple[int, tuple[int, ...], int]:
        return (id(self._shown_at(index)), tuple(self._offsets(index)), self.size.width)

    def _offsets(self, index: int) -> list[int]:
        """The letters of the query in the name of the row at `index` (found as it is drawn)."""
        if index not in self._drawn_offsets:
            tool = self._ranking.order[index]
            self._drawn_offsets[index] = self._ranker.offsets(self._query, tool)
        return self._drawn_offsets[index]

    def row_text(self, index: int) -> str:
        """The plain text of the row shown at `index`."""
        return self._row(index).plain

    def _refill(self, current: str | None = None) -> None:
        """Rank and show the tools; highlight the best match (or the tool called `current`)."""
        query = self.query_one("#tool-filter", Input).value.strip()
        self._query = query
        self._drawn_offsets.clear()
        on_screen = self.rows.scrollable_content_region.height
        self._ranking = ranking = self._ranker.ranking(query, first=on_screen)
        self.rows.set_rows(self._heights_shown(), ranking.settled, self._settle)
        matched = len(ranking.matched)
        count = f"{matched}/{counted(len(self.tools), 'tool')}"
        if len(self._labels) > 1:
            count += f" · {counted(len(self._labels), 'endpoint')}"
        self.query_one("#tool-count", Static).update(count, layout=False)  # one line, always
        self.query_one(NoMatch).show_for(query, matched)
        if matched and (current is None or self.highlight(current) is None):
            self.rows.highlighted = 0
        if not ranking.complete:
            self.run_worker(self._settle_in_steps(ranking), group="tool-ranking", exclusive=True)

    def _heights_shown(self) -> list[int]:
        heights = self._heights
        return [heights[index] for index in self._ranking.order]

    def _settle(self) -> list[int]:
        """Put every tool shown in its final place; the rows' heights in that order."""
        self._ranking.settle_at_least(len(self._ranking.matched))
        return self._heights_shown()

    async def _settle_in_steps(self, ranking: Ranking) -> None:
        """Settle the ranking a step at a time between other events (a key typed meanwhile
        ranks its own query: this worker is cancelled, and the ranking kept as it is)."""
        while not ranking.settle(SETTLE_STEP):
            await asyncio.sleep(0)
        if ranking is self._ranking:
            self.rows.settle_rows(self._heights_shown())

    @on(Input.Changed, "#tool-filter")
    def _filter_changed(self) -> None:
        self._refill()

    @on(Input.Submitted, "#tool-filter")
    def _filter_submitted(self) -> None:
        if self._ranking.matched:
            self.post_message(self.Chosen(self._shown_at(self.rows.highlighted or 0)))

    @on(ToolRows.Selected)
    def _selected(self, event: ToolRows.Selected) -> None:
        event.stop()
        self.post_message(self.Chosen(self._shown_at(event.index)))

    def select(self, name: str) -> Tool | None:
        """Highlight and choose the tool called `name` (clearing the filter if needed)."""
        if name not in [t.name for t in self.shown]:
            self.query_one("#tool-filter", Input).value = ""
            self._refill()
        tool = self.highlight(name)
        if tool is not None:
            self.post_message(self.Chosen(tool))
        return tool

    def highlight(self, name: str) -> Tool | None:
        """Move the list's highlight to `name` if it is shown (no message)."""
        for index, tool in enumerate(self.shown):
            if tool.name == name:
                self.rows.highlighted = index
                return tool
        return None

    def focus_filter(self) -> None:
        """Focus the filter at once (a key typed right after f2 goes to it)."""
        self.screen.set_focus(self.query_one("#tool-filter", Input))

    def on_key(self, event: events.Key) -> None:
        """Up/down in the filter move through the list."""
        if self.query_one("#tool-filter", Input).has_focus and event.key in ("down", "up"):
            event.stop()
            if event.key == "down":
                self.rows.action_cursor_down()
            else:
                self.rows.action_cursor_up()
