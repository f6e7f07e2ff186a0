"""The union of tools: a fuzzy filter, one line per tool (name, endpoint, description), counts."""

from __future__ import annotations

import posixpath
from urllib.parse import urlparse

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.fuzzy import FuzzySearch
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from fleet_tui.envs.base import Tool
from fleet_tui.envs.tool_hints import tool_mark
from fleet_tui.text import one_line, visible
from fleet_tui.ui.keymap import bindings_for


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


def fuzzy_rank(query: str, tools: list[Tool]) -> list[tuple[Tool, list[int]]]:
    """Tools matching `query` (by name, then description), best first, with matched name offsets."""
    if not query:
        return [(tool, []) for tool in tools]
    search = FuzzySearch()
    ranked: list[tuple[float, int, Tool, list[int]]] = []
    for order, tool in enumerate(tools):
        score, offsets = search.match(query, tool.name)
        if not score:
            described, _ = search.match(query, tool.description[:200])
            score, offsets = described * 0.5, []
        if score:
            ranked.append((score, order, tool, list(offsets)))
    ranked.sort(key=lambda item: (-item[0], item[1]))
    return [(tool, offsets) for _, _, tool, offsets in ranked]


def tool_prompt(tool: Tool, offsets: list[int], endpoint: str, width: int = 34) -> Text:
    name = Text(visible(tool.name), style="bold", no_wrap=True, overflow="ellipsis")
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
    """Filterable list of tools; posts `ToolList.Chosen` when the highlighted tool changes."""

    HELP_AREA = "tools"
    BINDINGS = bindings_for("tools")

    class Chosen(Message):
        def __init__(self, tool: Tool) -> None:
            super().__init__()
            self.tool = tool

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tools: list[Tool] = []
        self.shown: list[Tool] = []

    def compose(self) -> ComposeResult:
        yield Input(placeholder="Filter tools (fuzzy)", id="tool-filter")
        yield OptionList(id="tool-options")
        yield Static("", id="tool-count", markup=False)

    def set_tools(self, tools: list[Tool], keep_highlight: bool = False) -> None:
        """Show `tools` (`keep_highlight`: the same tool stays highlighted if still there)."""
        self.tools = list(tools)
        self._refill(keep_highlight)

    def _refill(self, keep_highlight: bool = False) -> None:
        """Rank and show the tools; highlight the best match (or, when asked, the same tool)."""
        options = self.query_one("#tool-options", OptionList)
        index = options.highlighted
        current = None
        if keep_highlight and index is not None and index < len(self.shown):
            current = self.shown[index].name
        query = self.query_one("#tool-filter", Input).value.strip()
        ranked = fuzzy_rank(query, self.tools)
        self.shown = [tool for tool, _ in ranked]
        urls = sorted({t.endpoint for t in self.tools if t.endpoint})
        width = max(16, (self.size.width or 36) - 3)
        labels = endpoint_labels(urls) if len(urls) > 1 else {}
        options.clear_options()
        options.add_options(
            [Option(tool_prompt(t, offs, labels.get(t.endpoint, ""), width)) for t, offs in ranked]
        )
        endpoints = len(urls)
        count = f"{len(self.shown)}/{len(self.tools)} tools"
        if endpoints > 1:
            count += f" · {endpoints} endpoints"
        self.query_one("#tool-count", Static).update(count)
        if self.shown:
            names = [tool.name for tool in self.shown]
            options.highlighted = names.index(current) if current in names else 0

    def on_resize(self) -> None:
        if self.tools:
            self._refill(keep_highlight=True)

    @on(Input.Changed, "#tool-filter")
    def _filter_changed(self) -> None:
        self._refill()

    @on(Input.Submitted, "#tool-filter")
    def _filter_submitted(self) -> None:
        if self.shown:
            self.post_message(self.Chosen(self.shown[self.query_one(OptionList).highlighted or 0]))

    @on(OptionList.OptionSelected, "#tool-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.shown[event.option_index]))

    def select(self, name: str) -> Tool | None:
        """Highlight and choose the tool called `name` (clearing the filter if needed)."""
        if name not in [t.name for t in self.shown]:
            self.query_one("#tool-filter", Input).value = ""
            self._refill()
        for index, tool in enumerate(self.shown):
            if tool.name == name:
                self.query_one(OptionList).highlighted = index
                self.post_message(self.Chosen(tool))
                return tool
        return None

    def highlight(self, name: str) -> None:
        """Move the list's highlight to `name` if it is shown (no message)."""
        for index, tool in enumerate(self.shown):
            if tool.name == name:
                self.query_one(OptionList).highlighted = index

    def focus_filter(self) -> None:
        """Focus the filter at once (a key typed right after f2 goes to it)."""
        self.screen.set_focus(self.query_one("#tool-filter", Input))

    def on_key(self, event: events.Key) -> None:
        """Up/down in the filter move through the list."""
        options = self.query_one(OptionList)
        if self.query_one("#tool-filter", Input).has_focus and event.key in ("down", "up"):
            event.stop()
            if event.key == "down":
                options.action_cursor_down()
            else:
                options.action_cursor_up()
