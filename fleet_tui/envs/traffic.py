"""The protocol and network log: every JSON-RPC message in and out of each MCP endpoint, every
frame on an OpenEnv session's WebSocket (`WsFrame`), and every HTTP request to an HTTP endpoint,
as `TrafficEntry`s.

The session's (read, write) streams are wrapped (`stream_taps.TappedRead`, `TappedWrite`),
whichever transport opened them; the HTTP transport reports each exchange itself (`HttpExchange`).
`listen_to_traffic(handlers, listener)` gives one listener the entries. Secrets are redacted
before an entry exists (`fleet_tui.text.redact`); a message keeps at most MAX_PAYLOAD_CHARS of
its JSON. `TrafficLog` keeps the latest MAX_ENTRIES entries, within MAX_LOG_CHARS in all.
"""

from __future__ import annotations

import json
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from typing import Any

import orjson
from pydantic import BaseModel

from fleet_tui.big_json import json_length
from fleet_tui.envs.mcp_client import ClientHandlers
from fleet_tui.text import REDACTED, SECRET_NAME, describe_error, elided_strings, redact

MAX_ENTRIES = 5000
"""Entries the in-memory log keeps (the oldest go first)."""

MAX_PAYLOAD_CHARS = 64 * 1024
"""Characters of one message's JSON kept; a longer message is kept with its long strings cut
in the middle (KEPT_STRING_CHARS of each), or else as the start of its text."""

KEPT_STRING_CHARS = 4000
"""Characters kept of each long string of a message longer than MAX_PAYLOAD_CHARS."""

MAX_PARSED_CHARS = 16 * 1024 * 1024
"""A longer message is not parsed to shorten its strings: only its start is kept."""

MAX_LOG_CHARS = 32 * 1024 * 1024
"""Characters of messages the in-memory log keeps in all (the oldest go first)."""

MAX_HTTP_BODY_CHARS = 16 * 1024
"""Characters of an HTTP request's or response's body an entry keeps."""

MAX_HEADERS, MAX_HEADER_CHARS = 64, 1024
"""Headers an HTTP entry keeps, and characters of each value."""

MAX_PENDING = 10_000
"""Requests remembered while they await an answer (for latency and the answer's method)."""


_SCHEME = re.compile(r"\b(?:https?|wss?)://", re.I)


@dataclass(frozen=True)
class HttpExchange:
    """One HTTP request and its response headers (a streamed body may still be arriving)."""

    method: str
    url: str
    status: int | None
    """None when no response came (the error says why)."""
    elapsed_s: float
    """Until the response headers arrived (or the request failed)."""
    request_bytes: int
    content_type: str = ""
    error: str | None = None
    request_headers: tuple[tuple[str, str], ...] = ()
    response_headers: tuple[tuple[str, str], ...] = ()
    request_body: bytes | None = None
    """The request's body, when it was sent whole (not streamed)."""
    response_body: bytes | None = None
    """The response's body, when it was read before the client got it (a JSON reply, an
    error); a streamed one is not: its JSON-RPC messages are entries of their own."""


@dataclass(frozen=True)
class WsFrame:
    """One text frame on a WebSocket session (OpenEnv's `/ws`), as it was sent or received."""

    text: str


@dataclass(frozen=True)
class TrafficEntry:
    """One JSON-RPC message or WebSocket frame (`direction` "out" or "in") or HTTP request
    ("http")."""

    seq: int
    at: float
    """When it was seen (seconds since the epoch)."""
    endpoint: str
    direction: str
    kind: str
    """request, response, error, notification; fault (the transport failed); http."""
    method: str = ""
    """The JSON-RPC method (an answer's: its request's), a frame's `type`, or the HTTP method
    and URL."""
    id: str | int | None = None
    latency_s: float | None = None
    """For an answer: since its request; for HTTP: until the response headers."""
    size_bytes: int = 0
    message: Any = None
    """The message's JSON, redacted (with its long strings shortened, or its start as text,
    when `truncated`), or what failed."""
    truncated: bool = False
    status: int | None = None
    """The HTTP status."""
    side: str = "env"
    """`env`: the session's traffic with its env; `agent`: an agent's with fleet-tui's proxy
    (`in`: what the agent sent)."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def matches(self, words: str) -> bool:
        """Whether every word of `words` is in its direction, kind, method, id or endpoint
        (URLs without their scheme, so `http` finds the HTTP requests, not every entry of an
        http:// endpoint)."""
        haystack = " ".join(
            _SCHEME.sub("", str(part))
            for part in (
                self.side,
                self.direction,
                self.kind,
                self.method,
                self.id,
                self.status,
                self.endpoint,
            )
            if part is not None
        ).lower()
        return all(word in haystack for word in words.lower().split())


class TrafficLog:
    """The latest entries: at most MAX_ENTRIES, and MAX_LOG_CHARS of messages in all."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_chars: int = MAX_LOG_CHARS) -> None:
        self._entries: deque[TrafficEntry] = deque()
        self.max_entries = max_entries
        self.max_chars = max_chars
        self._chars = 0
        self.dropped = 0
        """Entries let go to stay within the bounds."""
        self._seq = 0

    def add(self, entry: TrafficEntry) -> TrafficEntry:
        """Keep `entry`, numbered after the last one (the env's and the agent's traffic come
        from two recorders: one log numbers them both); returns it as kept."""
        self._seq += 1
        entry = replace(entry, seq=self._seq)
        self._entries.append(entry)
        self._chars += _weight(entry)
        while len(self._entries) > self.max_entries or (
            self._chars > self.max_chars and len(self._entries) > 1
        ):
            self._chars -= _weight(self._entries.popleft())
            self.dropped += 1
        return entry

    def __iter__(self) -> Iterator[TrafficEntry]:
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def last_seq(self) -> int:
        return self._entries[-1].seq if self._entries else 0


def _weight(entry: TrafficEntry) -> int:
    return min(entry.size_bytes, MAX_PAYLOAD_CHARS) + 200


class TrafficRecorder:
    """Turns tapped messages and HTTP exchanges into entries for `listener`."""

    def __init__(self, listener: Callable[[TrafficEntry], None], side: str = "env") -> None:
        self.listener = listener
        self.side = side
        self._seq = 0
        self._pending: OrderedDict[tuple[str, str, Any], tuple[float, str]] = OrderedDict()

    def message(self, url: str, direction: str, item: Any) -> None:
        if isinstance(item, Exception):
            self._emit(url, direction, "fault", message=describe_error(item))
            return
        if isinstance(item, WsFrame):
            self._frame(url, direction, item.text)
            return
        message = getattr(item, "message", item)
        data = _message_json(message)
        length = len(data) if data.isascii() else len(data.decode("utf-8", "replace"))
        parsed = None
        if length <= MAX_PARSED_CHARS:  # the value the JSON reads back as, not read back
            parsed = message.model_dump(mode="json", by_alias=True, exclude_none=True)
        start = data[: MAX_PAYLOAD_CHARS * 4].decode("utf-8", "replace")[:MAX_PAYLOAD_CHARS]
        kept, whole = _kept_value(start, length, parsed)
        request_id = getattr(message, "id", None)
        method = getattr(message, "method", None)
        latency = None
        if method is not None:
            kind = "request" if request_id is not None else "notification"
            if request_id is not None:
                self._remember(url, direction, request_id, method)
        else:
            kind = "error" if getattr(message, "error", None) is not None else "response"
            asked = self._pending.pop((url, _other(direction), request_id), None)
            if asked is not None:
                latency, method = time.monotonic() - asked[0], asked[1]
        self._emit(
            url,
            direction,
            kind,
            method=method or "",
            id=request_id,
            latency_s=latency,
            size_bytes=len(data),
            message=kept,
            truncated=not whole,
        )

    def _frame(self, url: str, direction: str, text: str) -> None:
        """A WebSocket frame: named by its `type`; an answer (frames go one request, one
        answer at a time) gets its latency since the frame sent before it."""
        raw, kept, whole = _kept(text)
        frame_type = raw.get("type") if isinstance(raw, dict) else None
        kind, latency = "request", None
        if direction == "out":
            self._remember(url, direction, None, str(frame_type or ""))
        else:
            kind = "error" if frame_type == "error" else "response"
            asked = self._pending.pop((url, "out", None), None)
            latency = time.monotonic() - asked[0] if asked is not None else None
        self._emit(
            url,
            direction,
            kind,
            method=str(frame_type or "frame"),
            latency_s=latency,
            size_bytes=len(text.encode("utf-8", "replace")),
            message=kept,
            truncated=not whole,
        )

    def http(self, url: str, exchange: HttpExchange) -> None:
        self._emit(
            url,
            "http",
            "http",
            method=f"{exchange.method} {redact_url(exchange.url)}",
            latency_s=exchange.elapsed_s,
            size_bytes=exchange.request_bytes,
            message={
                "content_type": exchange.content_type,
                "error": exchange.error,
                "request_headers": shown_headers(exchange.request_headers),
                "request_body": shown_body(exchange.request_body),
                "response_headers": shown_headers(exchange.response_headers),
                "response_body": shown_body(exchange.response_body),
            },
            status=exchange.status,
        )

    def _remember(self, url: str, direction: str, request_id: Any, method: str) -> None:
        self._pending[(url, direction, request_id)] = (time.monotonic(), method)
        while len(self._pending) > MAX_PENDING:
            self._pending.popitem(last=False)

    def _emit(self, url: str, direction: str, kind: str, **fields: Any) -> None:
        self._seq += 1
        entry = TrafficEntry(
            self._seq, time.time(), redact_url(url), direction, kind, side=self.side, **fields
        )
        self.listener(entry)


_ONLY_JSON_VALUES = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
"""orjson hands a date, a dataclass, a subclass of str or int to `_plain_fields` (which refuses
them: pydantic writes those)."""


def _message_json(message: BaseModel) -> bytes:
    """A JSON-RPC message's JSON as UTF-8, as pydantic writes it (by alias, no None fields),
    written by orjson: a megabyte string in 0.03 ms rather than pydantic's 0.65, and a message
    of many small values is not copied first. A message holding other values (a URL object, an
    integer past 64 bits) is written by pydantic, without decoding a megabyte reply to text."""
    try:
        return orjson.dumps(message, default=_plain_fields, option=_ONLY_JSON_VALUES)
    except orjson.JSONEncodeError:
        serializer = message.__pydantic_serializer__
        return serializer.to_json(message, by_alias=True, exclude_none=True)


def _plain_fields(value: Any) -> dict[str, Any]:
    """A model's fields by the names pydantic writes them under, None ones left out, for orjson
    to write as they are; a model declaring its own serializers, extra, computed or excluded
    fields, or any other value, is refused (TypeError). Meant for the JSON-RPC message types,
    whose payloads are plain values; not for models written other ways (a root model, an
    annotated serializer)."""
    model = type(value)
    if not isinstance(value, BaseModel) or _written_its_own_way(model):
        raise TypeError(f"{model.__name__} is written by pydantic")
    fields = {
        field.serialization_alias or field.alias or name: getattr(value, name)
        for name, field in model.model_fields.items()
    }
    return {name: field for name, field in fields.items() if field is not None}


def _written_its_own_way(model: type[BaseModel]) -> bool:
    decorators = model.__pydantic_decorators__
    return bool(
        decorators.field_serializers
        or decorators.model_serializers
        or model.model_computed_fields
        or model.model_config.get("extra") == "allow"
        or any(field.exclude for field in model.model_fields.values())
    )


def _kept(text: str) -> tuple[Any, Any, bool]:
    """(the parsed JSON or None when too long or not JSON, what an entry keeps of it, whether
    that is all of it); see `_kept_value`."""
    raw = None
    if len(text) <= MAX_PARSED_CHARS:
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):
            raw = None
    return raw, *_kept_value(text[:MAX_PAYLOAD_CHARS], len(text), raw)


def _kept_value(start: str, length: int, raw: Any) -> tuple[Any, bool]:
    """(what an entry keeps of a JSON text `length` characters long starting with `start`,
    whether that is all of it), given `raw`, the value the text reads back as (None when it
    was not read). It keeps the JSON redacted; a longer message's JSON with its long strings
    cut in the middle when that fits MAX_PAYLOAD_CHARS, else its first MAX_PAYLOAD_CHARS
    characters redacted."""
    if raw is not None and length <= MAX_PAYLOAD_CHARS:
        return redact(raw), True
    if raw is not None:
        shortened = elided_strings(raw, KEPT_STRING_CHARS, within=MAX_PAYLOAD_CHARS)
        if shortened is not None and json_length(shortened) <= MAX_PAYLOAD_CHARS:
            return redact(shortened), False
    return redact(start[:MAX_PAYLOAD_CHARS]), False


def shown_headers(headers: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Headers as an entry keeps them: a secret's value (`Authorization`, a cookie, a key or
    token) replaced, the rest redacted and bounded."""
    shown: dict[str, str] = {}
    for name, value in headers[:MAX_HEADERS]:
        secret = SECRET_NAME.search(name) is not None
        shown[name] = REDACTED if secret else redact(value[:MAX_HEADER_CHARS])
    if len(headers) > MAX_HEADERS:
        shown["…"] = f"{len(headers) - MAX_HEADERS} more headers not kept"
    return shown


def shown_body(body: bytes | None) -> Any:
    """A body as an entry keeps it (None when it was not there to read): JSON redacted as
    messages are (secret-named keys too); other text redacted and cut at MAX_HTTP_BODY_CHARS.
    JSON longer than that is not kept (cut, its secrets could not be found by their keys)."""
    if body is None:
        return None
    text = body[: MAX_HTTP_BODY_CHARS * 4].decode("utf-8", "replace")
    if len(body) <= MAX_HTTP_BODY_CHARS:
        raw, kept, _whole = _kept(text)
        if raw is not None:
            return kept
    if text.lstrip().startswith(("{", "[")):
        return f"({len(body):,} bytes of JSON, not kept: the protocol entries show its messages)"
    kept = redact(text[:MAX_HTTP_BODY_CHARS])
    return kept if len(body) <= MAX_HTTP_BODY_CHARS else f"{kept}… ({len(body):,} bytes)"


def _other(direction: str) -> str:
    return "in" if direction == "out" else "out"


_QUERY_SECRET = re.compile(r"([?&]([^=&#]+)=)([^&#]*)")


def redact_url(url: str) -> str:
    """`url` with secret values (the API key, bearer tokens) and secret-named query
    parameters (`?token=...`) hidden."""
    url = redact(url)
    return _QUERY_SECRET.sub(
        lambda m: m.group(1) + REDACTED if SECRET_NAME.search(m.group(2)) else m.group(0), url
    )


def listen_to_traffic(
    handlers: ClientHandlers, listener: Callable[[TrafficEntry], None]
) -> TrafficRecorder:
    """Give `listener` an entry for every message and HTTP request `handlers` see from the next
    connection on."""
    recorder = TrafficRecorder(listener)
    handlers.on_message.append(recorder.message)
    handlers.on_http.append(recorder.http)
    return recorder
