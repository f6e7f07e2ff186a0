"""Sidebar panes for what MCP servers offer besides tools: `ResourcesPane` (resources and
resource templates, subscriptions and updates) and `PromptsPane`. They only show lists and post
what the person asked for; the app does the work (`ui/catalog.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from fleet_tui.text import counted, name_line, one_line, visible
from fleet_tui.ui.keymap import bindings_for

if TYPE_CHECKING:  # the env's models load after the first frame
    from fleet_tui.envs.catalog import Prompt, Resource, ResourceTemplate


def resource_prompt(resource: Resource, *, subscribed: bool, updated: int, width: int) -> Text:
    """A resource's row; `updated`: how many times the server said it changed since read."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if updated:
        text.append("* ", style="bold yellow")
    text.append(name_line(resource.title or resource.name or resource.uri, width), style="bold")
    if subscribed:
        text.append("  subscribed", style="green")
    if updated:
        text.append("  updated" + (f" {updated:,} times" if updated > 1 else ""), style="yellow")
    text.append("\n")
    text.append(one_line(resource.uri, width), style="dim")
    return text


def template_prompt(template: ResourceTemplate, width: int) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(name_line(template.title or template.name or "template", width), style="bold")
    text.append("  template", style="cyan")
    text.append("\n")
    text.append(one_line(template.uri_template, width), style="dim")
    return text


def prompt_prompt(prompt: Prompt, width: int) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(name_line(prompt.title or prompt.name, width), style="bold")
    names = " ".join(visible(a.name) + ("*" if a.required else "") for a in prompt.arguments)
    if names:
        text.append(f"  {one_line(names, width)}", style="cyan")
    if prompt.description:
        text.append("\n")
        text.append(one_line(prompt.description, width), style="dim")
    return text


class CatalogPane(Vertical):
    """An option list and a count line; `r` asks for the list again."""

    class Refresh(Message):
        """The person asked to list again."""

        def __init__(self, pane: CatalogPane) -> None:
            super().__init__()
            self.pane = pane

    def compose(self) -> ComposeResult:
        yield OptionList(classes="catalog-options")
        yield Static("Listing…", classes="catalog-count", markup=False)

    @property
    def options(self) -> OptionList:
        return self.query_one(OptionList)

    @property
    def text_width(self) -> int:
        return max(16, (self.size.width or 36) - 3)

    def say(self, line: str) -> None:
        self.query_one(".catalog-count", Static).update(line)

    def _fill(self, options: list[Option]) -> None:
        highlighted = self.options.highlighted
        self.options.clear_options()
        self.options.add_options(options)
        if options:
            self.options.highlighted = min(highlighted or 0, len(options) - 1)

    def action_refresh_list(self) -> None:
        self.post_message(self.Refresh(self))


class ResourcesPane(CatalogPane):
    """Resources and templates: enter reads one, `u` subscribes or unsubscribes."""

    HELP_AREA = "resources"
    BINDINGS = bindings_for("resources")

    class Read(Message):
        def __init__(self, uri: str) -> None:
            super().__init__()
            self.uri = uri

    class ReadTemplate(Message):
        def __init__(self, template: ResourceTemplate) -> None:
            super().__init__()
            self.template = template

    class Subscription(Message):
        def __init__(self, uri: str, subscribe: bool) -> None:
            super().__init__()
            self.uri = uri
            self.subscribe = subscribe

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.resources: list[Resource] = []
        self.templates: list[ResourceTemplate] = []
        self.subscribed: set[str] = set()
        self.updated: dict[str, int] = {}
        """How many times the server said each URI changed since it was last read here."""

    def show(
        self, resources: list[Resource], templates: list[ResourceTemplate], subscribed: set[str]
    ) -> None:
        self.resources, self.templates, self.subscribed = resources, templates, set(subscribed)
        self._refill()

    def mark_updated(self, uri: str) -> None:
        self.updated[uri] = self.updated.get(uri, 0) + 1
        self._refill()

    def mark_read(self, uri: str) -> None:
        if self.updated.pop(uri, None) is not None:
            self._refill()

    def _refill(self) -> None:
        width = self.text_width
        self._fill(
            [
                Option(
                    resource_prompt(
                        r,
                        subscribed=r.uri in self.subscribed,
                        updated=self.updated.get(r.uri, 0),
                        width=width,
                    ),
                    id=f"r{i}",
                )
                for i, r in enumerate(self.resources)
            ]
            + [Option(template_prompt(t, width), id=f"t{i}") for i, t in enumerate(self.templates)]
        )
        counts = [
            counted(len(self.resources), "resource"),
            counted(len(self.templates), "template"),
        ]
        if self.updated:
            counts[1] = f"{len(self.updated)} updated"
        self.say(" · ".join(counts))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        kind, index = (event.option.id or "x0")[0], int((event.option.id or "x0")[1:])
        if kind == "r":
            self.post_message(self.Read(self.resources[index].uri))
        elif kind == "t":
            self.post_message(self.ReadTemplate(self.templates[index]))

    def action_toggle_subscription(self) -> None:
        option = self.options.highlighted_option
        if option is None or not (option.id or "").startswith("r"):
            self.notify("Pick a resource (templates cannot be subscribed to).", severity="warning")
            return
        uri = self.resources[int((option.id or "r0")[1:])].uri
        self.post_message(self.Subscription(uri, subscribe=uri not in self.subscribed))


class PromptsPane(CatalogPane):
    """Prompts: enter gets one (asking for its arguments first)."""

    HELP_AREA = "prompts"
    BINDINGS = bindings_for("prompts")

    class Get(Message):
        def __init__(self, prompt: Prompt) -> None:
            super().__init__()
            self.prompt = prompt

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prompts: list[Prompt] = []

    def show(self, prompts: list[Prompt]) -> None:
        self.prompts = prompts
        width = self.text_width
        self._fill([Option(prompt_prompt(p, width), id=f"p{i}") for i, p in enumerate(prompts)])
        self.say(counted(len(prompts), "prompt"))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Get(self.prompts[int((event.option.id or "p0")[1:])]))
