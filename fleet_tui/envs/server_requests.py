"""What a server may ask the person at the client, in plain data (no `mcp` types): an
elicitation (fill a form, or visit a URL), a sampling request (write the assistant's reply) and
an OAuth sign-in (open the authorization URL in a browser).

Whoever drives a session answers them through a port given to the session at its start: an
object with some of the methods below (`ServerRequests` has them all). The app answers through
dialogs, headless commands from their flags; a request nobody answers is not declared to
servers. `ClientHandlers.answering` (envs/mcp_client.py) takes the port, and
`envs/mcp_callbacks.py` turns its methods into the MCP SDK's callbacks and results.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

ElicitAction = Literal["accept", "decline", "cancel"]


@dataclass(frozen=True)
class ElicitRequest:
    """A server asks for input: a form from `schema`, or (URL mode) a visit to `url`."""

    endpoint: str
    message: str
    schema: dict[str, Any] = field(default_factory=dict)
    """The requested JSON Schema (form mode): flat properties of primitive types."""
    url: str | None = None
    """The page the server asks the person to visit (URL mode); never opened automatically."""

    @property
    def url_mode(self) -> bool:
        return self.url is not None


@dataclass(frozen=True)
class ElicitAnswer:
    """The person's answer: `content` only with accept in form mode."""

    action: ElicitAction
    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class SampleMessage:
    """One message of the conversation a server wants sampled, as text (non-text content is
    described, e.g. `[image image/png]`)."""

    role: str
    text: str


@dataclass(frozen=True)
class SampleRequest:
    """A server asks for the assistant's next message in a conversation."""

    endpoint: str
    messages: list[SampleMessage]
    system_prompt: str | None = None
    max_tokens: int | None = None


@dataclass(frozen=True)
class SignInRequest:
    """A server asks the person to sign in (OAuth): `url` is its authorization page, which
    brings the browser back to fleet-tui's listener on `redirect_uri`."""

    endpoint: str
    url: str
    redirect_uri: str
    timeout_s: float
    """How long fleet-tui waits for the browser to come back."""


ElicitHandler = Callable[[ElicitRequest], Awaitable[ElicitAnswer]]
SampleHandler = Callable[[SampleRequest], Awaitable[str | None]]
"""Returns the reply's text, or None to decline."""
SignInHandler = Callable[[SignInRequest], Awaitable[None]]
"""Shows the person where to sign in, for as long as the sign-in waits (it is cancelled when
the browser comes back or the wait ends); returning earlier means the person gave up."""


@runtime_checkable
class AnswersElicitation(Protocol):
    async def elicit(self, request: ElicitRequest) -> ElicitAnswer: ...


@runtime_checkable
class AnswersSampling(Protocol):
    async def sample(self, request: SampleRequest) -> str | None:
        """The reply's text, or None to decline."""
        ...


@runtime_checkable
class OffersRoots(Protocol):
    def roots(self) -> list[str]:
        """The root directories (paths or file:// URIs) offered now: asked at each roots/list."""
        ...


@runtime_checkable
class SignsIn(Protocol):
    async def sign_in(self, request: SignInRequest) -> None:
        """Show where to sign in, for as long as the sign-in waits (see SignInHandler)."""
        ...


class ServerRequests(AnswersElicitation, AnswersSampling, OffersRoots, SignsIn, Protocol):
    """A port that answers everything servers ask (the app's dialogs, headless flags)."""


AnswersServers = AnswersElicitation | AnswersSampling | OffersRoots | SignsIn
"""A port answering some of what servers ask; the rest is not declared to them."""

SAMPLING_MODEL = "human (fleet-tui)"
"""The model named in a sampling result: a person wrote the reply."""


def root_uris(paths: list[str]) -> list[str]:
    """`file://` URIs for root directories given as paths (relative to the current directory)
    or already as `file://` URIs."""
    return [p if p.startswith("file://") else Path(p).resolve().as_uri() for p in paths]


def root_problem(path: str) -> str | None:
    """Why `path` cannot be offered as a root (it is not a directory), or None."""
    if path.startswith("file://") or Path(path).is_dir():
        return None
    return f"{path}: not a directory"
