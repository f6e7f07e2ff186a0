"""The resources, resource templates and prompts of N MCP endpoints, read and got through the
endpoint that owns each (as tools are called), with completions and resource subscriptions.

Only endpoints whose server declared the feature (`resources`, `prompts`, `completions`) are
asked. Listings follow at most MAX_TOOL_PAGES pages; completions keep MAX_COMPLETIONS values.
A server's refusal is an EnvError with exit code 1; a name nobody offers, exit code 2.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from fleet_tui.envs.base import EnvError
from fleet_tui.envs.catalog import (
    Prompt,
    PromptResult,
    ReadResult,
    Resource,
    ResourceTemplate,
    prompt_from_mcp,
    prompt_result_from_mcp,
    read_result_from_mcp,
    resource_from_mcp,
    template_from_mcp,
)
from fleet_tui.envs.mcp_endpoint import (
    MAX_TOOL_PAGES,
    EndpointDown,
    McpEndpoint,
    NoAnswer,
    Timeouts,
    UnreadableReply,
)
from fleet_tui.envs.protocol_revision import refuse_if_modern
from fleet_tui.envs.server_events import ServerTask
from fleet_tui.text import describe_error, visible

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

T = TypeVar("T")

MAX_COMPLETIONS = 100
"""The most completion values kept from one answer (the MCP limit per response)."""


@dataclass
class Listing(Generic[T]):
    """The items of a listing across endpoints, and what went wrong on the way."""

    items: list[T] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class McpCatalog:
    """What N endpoints offer besides tools; the first endpoint wins a URI or a name."""

    def __init__(self, endpoints: Sequence[McpEndpoint], timeouts: Timeouts) -> None:
        self._endpoints = list(endpoints)
        self._timeouts = timeouts
        self._resource_owner: dict[str, McpEndpoint] = {}
        self._template_owner: dict[str, McpEndpoint] = {}
        self._prompts: dict[str, tuple[Prompt, McpEndpoint]] | None = None
        self._subscriptions: dict[str, McpEndpoint] = {}

    @property
    def subscribed(self) -> set[str]:
        """The URIs subscribed to on the endpoints' current connections."""
        return set(self._subscriptions)

    async def resubscribe(self, endpoints: Sequence[McpEndpoint]) -> dict[McpEndpoint, list[str]]:
        """Subscribe again to what was subscribed on `endpoints`, which were just reopened (a
        new connection starts without subscriptions); per endpoint, what was subscribed again
        and what was lost (dropped, saying why)."""
        held = [(uri, owner) for uri, owner in self._subscriptions.items() if owner in endpoints]
        outcomes = await asyncio.gather(
            *(self._subscription(uri, subscribe=True) for uri, _ in held), return_exceptions=True
        )
        said: dict[McpEndpoint, list[str]] = {}
        for (uri, owner), outcome in zip(held, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                del self._subscriptions[uri]
                line = f"subscription to {visible(uri)} lost ({failure(outcome)})"
            else:
                line = f"subscribed again to {visible(uri)}"
            said.setdefault(owner, []).append(line)
        return said

    def offers(self, feature: str) -> bool:
        """Whether any connected endpoint offers `feature` ("resources", "prompts")."""
        return any(endpoint.is_up and endpoint.offers(feature) for endpoint in self._endpoints)

    # -- listing -------------------------------------------------------------------------------

    async def resources(self) -> Listing[Resource]:
        listing = await self._list("resources", "list_resources", "resources", resource_from_mcp)
        self._resource_owner = first_owners((item.uri, owner) for owner, item in listing.items)
        return Listing(unique(listing.items, lambda r: r.uri), listing.warnings)

    async def templates(self) -> Listing[ResourceTemplate]:
        listing = await self._list(
            "resources", "list_resource_templates", "resource_templates", template_from_mcp
        )
        self._template_owner = first_owners(
            (item.uri_template, owner) for owner, item in listing.items
        )
        return Listing(unique(listing.items, lambda t: t.uri_template), listing.warnings)

    async def prompts(self) -> Listing[Prompt]:
        listing = await self._list("prompts", "list_prompts", "prompts", prompt_from_mcp)
        self._prompts = {}
        for owner, prompt in listing.items:
            self._prompts.setdefault(prompt.name, (prompt, owner))
        return Listing([prompt for prompt, _ in self._prompts.values()], listing.warnings)

    async def _list(
        self, feature: str, method: str, field_name: str, convert: Callable[[Any, str], T]
    ) -> Listing[tuple[McpEndpoint, T]]:
        serving = [e for e in self._endpoints if e.is_up and e.offers(feature)]
        answers = await asyncio.gather(
            *(endpoint.list_all(method, field_name) for endpoint in serving),
            return_exceptions=True,
        )
        listing: Listing[tuple[McpEndpoint, T]] = Listing()
        what = field_name.replace("_", " ")
        for endpoint, answer in zip(serving, answers, strict=True):
            if isinstance(answer, BaseException):
                listing.warnings.append(f"{endpoint.url}: {what} not listed: {failure(answer)}")
                continue
            items, warning = answer
            if warning:
                listing.warnings.append(f"MCP endpoint {endpoint.url}: {warning}")
            for item in items:
                try:
                    listing.items.append((endpoint, convert(item, endpoint.url)))
                except (KeyError, TypeError, ValueError) as error:
                    listing.warnings.append(
                        f"{endpoint.url}: one of its {what} was skipped ({describe_error(error)})"
                    )
        return listing

    async def server_tasks(self) -> Listing[ServerTask]:
        """The MCP tasks the servers that offer `tasks/list` keep for this session."""
        from fleet_tui.envs.tool_tasks import list_tasks

        serving = [e for e in self._endpoints if e.is_up and e.offers("tasks")]
        answers = await asyncio.gather(
            *(
                endpoint.request(lambda s: list_tasks(s, MAX_TOOL_PAGES), self._timeouts.list)
                for endpoint in serving
            ),
            return_exceptions=True,
        )
        listing: Listing[ServerTask] = Listing()
        for endpoint, answer in zip(serving, answers, strict=True):
            if isinstance(answer, BaseException):
                listing.warnings.append(f"{endpoint.url}: tasks not listed: {failure(answer)}")
                continue
            listing.items.extend(
                ServerTask(endpoint.url, "", t.task_id, t.status, t.status_message) for t in answer
            )
        return listing

    # -- reading, getting, completing ----------------------------------------------------------

    async def read(self, uri: str) -> ReadResult:
        """Read one resource from the endpoint that lists it (or serves a matching template)."""
        endpoint = await self._endpoint_for(uri)
        started = time.monotonic()
        result = await self._ask(
            endpoint, lambda s: s.read_resource(uri), self._timeouts.call, f"reading {uri}"
        )
        return read_result_from_mcp(result, uri, endpoint.url, time.monotonic() - started)

    async def get_prompt(self, name: str, arguments: dict[str, str]) -> PromptResult:
        """Get one prompt with its arguments; required ones are checked before asking."""
        prompts = self._prompts if self._prompts is not None else await self._listed_prompts()
        if name not in prompts:
            known = ", ".join(sorted(map(visible, prompts))) or "none"
            raise EnvError(f"unknown prompt {name!r} (available: {known})")
        prompt, endpoint = prompts[name]
        missing = [a.name for a in prompt.arguments if a.required and not arguments.get(a.name)]
        if missing:
            raise EnvError(f"prompt {name!r} needs the argument(s): {', '.join(missing)}")
        result = await self._ask(
            endpoint,
            lambda s: s.get_prompt(name, {key: str(value) for key, value in arguments.items()}),
            self._timeouts.call,
            f"getting prompt {name!r}",
        )
        return prompt_result_from_mcp(result, name, endpoint.url)

    async def complete(
        self,
        ref: Prompt | ResourceTemplate,
        argument: str,
        value: str,
        context: dict[str, str] | None = None,
    ) -> list[str]:
        """Values the server suggests for one argument of a prompt or template (none when it
        offers no completions)."""
        import mcp.types

        owner = next((e for e in self._endpoints if e.url == ref.endpoint), None)
        if owner is None or not owner.is_up or not owner.offers("completions"):
            return []
        reference: mcp.types.PromptReference | mcp.types.ResourceTemplateReference = (
            mcp.types.PromptReference(name=ref.name)
            if isinstance(ref, Prompt)
            else mcp.types.ResourceTemplateReference(uri=ref.uri_template)
        )
        result = await self._ask(
            owner,
            lambda s: s.complete(reference, {"name": argument, "value": value}, context or None),
            self._timeouts.list,
            f"completing {argument!r}",
        )
        return [str(v) for v in result.completion.values[:MAX_COMPLETIONS]]

    # -- subscriptions -------------------------------------------------------------------------

    async def subscribe(self, uri: str) -> None:
        self._subscriptions[uri] = await self._subscription(uri, subscribe=True)

    async def unsubscribe(self, uri: str) -> None:
        await self._subscription(uri, subscribe=False)
        self._subscriptions.pop(uri, None)

    async def _subscription(self, uri: str, *, subscribe: bool) -> McpEndpoint:
        import mcp.types

        endpoint = await self._endpoint_for(uri)
        server = endpoint.status.server
        refuse_if_modern("resources/subscribe", server.protocol_version if server else None)
        if not endpoint.can_subscribe():
            raise EnvError(f"the server at {endpoint.url} does not offer resource subscriptions")
        params = mcp.types.SubscribeRequestParams(uri=uri)
        request = (
            mcp.types.SubscribeRequest(params=params)
            if subscribe
            else mcp.types.UnsubscribeRequest(params=mcp.types.UnsubscribeRequestParams(uri=uri))
        )
        await self._ask(
            endpoint,
            lambda s: s.send_request(request, mcp.types.EmptyResult),
            self._timeouts.list,
            f"{'subscribing to' if subscribe else 'unsubscribing from'} {uri}",
        )
        return endpoint

    # -- helpers -------------------------------------------------------------------------------

    async def _endpoint_for(self, uri: str) -> McpEndpoint:
        """The endpoint that lists `uri`, else the one whose template matches it best, else
        the first that serves resources."""
        if not self._resource_owner and not self._template_owner:
            await self.resources()
            await self.templates()
        if uri in self._resource_owner:
            return self._resource_owner[uri]
        matches = [
            (len(template.split("{", 1)[0]), owner)
            for template, owner in self._template_owner.items()
            if uri.startswith(template.split("{", 1)[0])
        ]
        if matches:
            return max(matches, key=lambda match: match[0])[1]
        serving = [e for e in self._endpoints if e.is_up and e.offers("resources")]
        if not serving:
            raise EnvError("no connected MCP endpoint of this target offers resources")
        return serving[0]

    async def _listed_prompts(self) -> dict[str, tuple[Prompt, McpEndpoint]]:
        await self.prompts()
        return self._prompts or {}

    async def _ask(
        self,
        endpoint: McpEndpoint,
        make: Callable[[ClientSession], Awaitable[T]],
        timeout: float | None,
        what: str,
    ) -> T:
        """One request, its failures as an EnvError in plain words."""
        from mcp.shared.exceptions import MCPError

        try:
            return await endpoint.request(make, timeout)
        except MCPError as error:
            raise EnvError(
                f"{what}: the server answered: {visible(error.message)}", exit_code=1
            ) from None
        except TimeoutError:
            raise EnvError(f"{what}: no answer within {timeout or 0:g}s") from None
        except Exception as error:
            raise EnvError(f"{what} failed: {failure(error)}") from None


def failure(error: BaseException) -> str:
    if isinstance(error, EndpointDown | NoAnswer | UnreadableReply):
        return str(error)
    return describe_error(error)


def first_owners(pairs: Any) -> dict[str, McpEndpoint]:
    owners: dict[str, McpEndpoint] = {}
    for key, owner in pairs:
        owners.setdefault(key, owner)
    return owners


def unique(items: list[tuple[McpEndpoint, T]], key: Callable[[T], str]) -> list[T]:
    """The items, the first one of each key kept."""
    seen: dict[str, T] = {}
    for _, item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())
