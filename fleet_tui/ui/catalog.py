"""The Resources and Prompts panes of the app: added once the env's servers list some, reading
resources (templates ask for their values, with the server's completions), getting prompts
through a form, subscriptions, and resource links in results; what comes back is shown in the
result view. A server's `notifications/resources/updated` (the session's `ResourceUpdated`
event) marks the resource in its pane and counts there how often it changed since read (a
toast only for the first change).

A part of the app with a narrow port: `Catalog` reaches the app only through `CatalogHost`,
and shows what comes back through the callable it is given."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from textual.css.query import DOMQuery
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from fleet_tui.envs.errors import EnvError
from fleet_tui.media_files import BlockFiles
from fleet_tui.text import describe_error, one_line
from fleet_tui.ui.host import AppServices
from fleet_tui.ui.widgets.catalog_panes import CatalogPane, PromptsPane, ResourcesPane

if TYPE_CHECKING:  # the session's models and how results are formatted load after the first
    # frame
    from fleet_tui.controller import SessionController
    from fleet_tui.envs.base import Tool
    from fleet_tui.envs.catalog import Prompt, ReadResult, ResourceTemplate
    from fleet_tui.envs.server_events import ResourceUpdated
    from fleet_tui.ui.result_format import ResultPlan

PaneT = TypeVar("PaneT", bound=CatalogPane)


class CatalogHost(AppServices, Protocol):
    """What the Resources and Prompts panes need of the app: the session, the sidebar, a
    dialog and where files too large to show go."""

    @property
    def controller(self) -> SessionController: ...

    image_folder: Path | None

    @property
    def screen(self) -> Screen[object]: ...

    def query(self, selector: type[PaneT]) -> DOMQuery[PaneT]: ...

    def push_screen(self, screen: Screen[Any], callback: Any = None) -> Any: ...

    async def add_sidebar_pane(self, title: str, widget: Widget, pane_id: str) -> None: ...

    def show_sidebar_pane(self, pane_id: str) -> None: ...


class Catalog:
    """The Resources and Prompts panes and what their keys ask for."""

    def __init__(self, host: CatalogHost, show: Callable[[ResultPlan], Awaitable[None]]) -> None:
        """`show` puts what was read or got into the result view."""
        self._host = host
        self._show = show

    def env_ready(self, _tools: list[Tool]) -> None:
        """List the env's resources and prompts (their panes appear when there are some)."""
        if self._host.controller.can_list_catalog:
            self._in_worker(self._list_all())

    def list_again(self, kind: str) -> None:
        """A server said its resources or prompts changed: list them again into their pane."""
        if self._host.controller.can_list_catalog:
            self._in_worker(self._list_resources() if kind == "resources" else self._list_prompts())

    async def _list_all(self) -> None:
        await self._list_resources()
        await self._list_prompts()

    async def _list_resources(self) -> None:
        resources, templates = await self._host.controller.list_resources()
        self._warn(resources.warnings + templates.warnings)
        pane = await self._pane(
            ResourcesPane, "resources", "Res", bool(resources.items or templates.items)
        )
        if pane is not None:
            pane.show(resources.items, templates.items, self._host.controller.subscriptions())

    async def _list_prompts(self) -> None:
        prompts = await self._host.controller.list_prompts()
        self._warn(prompts.warnings)
        pane = await self._pane(PromptsPane, "prompts", "Prompts", bool(prompts.items))
        if pane is not None:
            pane.show(prompts.items)

    async def _pane(self, kind: type[PaneT], name: str, title: str, wanted: bool) -> PaneT | None:
        """The pane of `kind`, added to the sidebar (its tab labelled `title`) the first time it
        has something to show."""
        found = list(self._host.query(kind))
        if found:
            return found[0]
        if not wanted:
            return None
        pane = kind(id=f"{name}-pane")
        await self._host.add_sidebar_pane(title, pane, f"pane-{name}")
        return pane

    # -- what the panes ask for ------------------------------------------------------------------

    def asked(self, event: Message) -> None:
        """Do what a pane asks: refresh, read, read a template, (un)subscribe, get a prompt."""
        match event:
            case CatalogPane.Refresh(pane=pane):
                resources = isinstance(pane, ResourcesPane)
                self._in_worker(self._list_resources() if resources else self._list_prompts())
            case ResourcesPane.Read(uri=uri):
                self.read(uri)
            case ResourcesPane.ReadTemplate():
                self._ask_template(event)
            case ResourcesPane.Subscription(uri=uri, subscribe=subscribe):
                self._in_worker(self._subscribe(uri, subscribe))
            case PromptsPane.Get():
                self._ask_prompt(event)

    def read(self, uri: str) -> None:
        """Read a resource (a pane's row, a result's link) into the result view."""
        self._in_worker(self._read(uri))

    async def _read(self, uri: str) -> None:
        from fleet_tui.ui.catalog_format import plan_read

        result = await self._host.controller.read_resource(uri)
        saved = await asyncio.to_thread(save_binary, result, self._host.image_folder)
        await self._show(await asyncio.to_thread(plan_read, result, saved))
        for pane in self._host.query(ResourcesPane):
            pane.mark_read(uri)

    def _ask_template(self, event: ResourcesPane.ReadTemplate) -> None:
        template = event.template
        names = template.variables()
        schema = {
            "type": "object",
            "properties": {name: {"type": "string"} for name in names},
            "required": names,
        }

        def read(values: dict[str, str] | None) -> None:
            if values is not None:
                self._in_worker(self._read(template.expand(values)))

        from fleet_tui.ui.screens.arguments_screen import ArgumentsScreen  # forms load here

        self._host.push_screen(
            ArgumentsScreen(
                f"Read {template.uri_template}",
                template.description or "",
                schema,
                "Read",
                self._completer(template),
            ),
            read,
        )

    def _ask_prompt(self, event: PromptsPane.Get) -> None:
        prompt = event.prompt
        if not prompt.arguments:
            self._in_worker(self._get_prompt(prompt.name, {}))
            return

        def get(values: dict[str, str] | None) -> None:
            if values is not None:
                self._in_worker(self._get_prompt(prompt.name, values))

        from fleet_tui.ui.screens.arguments_screen import ArgumentsScreen  # forms load here

        screen = ArgumentsScreen(
            f"Prompt {prompt.name}",
            prompt.description or "",
            prompt.input_schema(),
            "Get",
            self._completer(prompt),
        )
        self._host.push_screen(screen, get)

    async def _get_prompt(self, name: str, arguments: dict[str, str]) -> None:
        from fleet_tui.ui.catalog_format import plan_prompt

        result = await self._host.controller.get_prompt(name, arguments)
        await self._show(await asyncio.to_thread(plan_prompt, result))

    async def _subscribe(self, uri: str, subscribe: bool) -> None:
        await self._host.controller.set_subscription(uri, subscribe)
        for pane in self._host.query(ResourcesPane):
            pane.show(pane.resources, pane.templates, self._host.controller.subscriptions())
        verb = "Subscribed to" if subscribe else "Unsubscribed from"
        self._host.notify(f"{verb} {one_line(uri, 100)}", markup=False)

    def resource_updated(self, event: ResourceUpdated) -> None:
        """Count the update on the resource's row; a toast only for its first change since
        it was read, so a server that says so every few seconds does not cover the screen."""
        panes = list(self._host.query(ResourcesPane))
        first = not any(event.uri in pane.updated for pane in panes)
        for pane in panes:
            pane.mark_updated(event.uri)
        if first:
            self._host.notify(
                f"{one_line(event.uri, 100)} changed: enter in Resources reads it again",
                markup=False,
            )

    # -- keys --------------------------------------------------------------------------------------

    def show_resources(self) -> None:
        self._show_pane(ResourcesPane, "pane-resources", "resources")

    def show_prompts(self) -> None:
        self._show_pane(PromptsPane, "pane-prompts", "prompts")

    def _show_pane(self, kind: type[CatalogPane], pane_id: str, what: str) -> None:
        panes = list(self._host.query(kind))
        if not panes:
            self._host.notify(f"This target's servers list no {what}.", severity="warning")
            return
        self._host.show_sidebar_pane(pane_id)
        self._host.screen.set_focus(panes[0].options)

    # -- helpers -----------------------------------------------------------------------------------

    def _completer(
        self, ref: Prompt | ResourceTemplate
    ) -> Callable[[str, str, dict[str, str]], Awaitable[list[str]]]:
        async def complete(argument: str, value: str, context: dict[str, str]) -> list[str]:
            return await self._host.controller.complete(ref, argument, value, context)

        return complete

    def _in_worker(self, work: Awaitable[None]) -> None:
        """Run catalog work in a worker; its failure is shown in the result view."""

        async def run() -> None:
            from fleet_tui.ui.result_format import plan_message

            try:
                await work
            except EnvError as error:
                await self._show(plan_message(error.message, is_error=True, title="MCP"))
            except Exception as error:
                await self._show(plan_message(describe_error(error), is_error=True, title="MCP"))

        self._host.run_worker(run(), group="catalog", exit_on_error=False)

    def _warn(self, warnings: list[str]) -> None:
        for warning in warnings:
            self._host.notify(one_line(warning, 300), severity="warning", markup=False, timeout=8)


def save_binary(result: ReadResult, folder: Path | None) -> dict[int, Path]:
    """Write the binary contents that are not images to files (in `folder`, else a new
    temporary one); their paths by content index."""
    files = BlockFiles(str(folder) if folder else None, result.uri.rsplit("/", 1)[-1] or "resource")
    return {
        index: files.write(index, content.blob, content.mime_type)
        for index, content in enumerate(result.contents)
        if content.blob is not None and not (content.mime_type or "").startswith("image/")
    }
