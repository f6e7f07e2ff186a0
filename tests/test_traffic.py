"""The protocol and network log: every JSON-RPC message in and out of a real server, with its
method, id, latency and size, the HTTP requests under them, secrets redacted, and a bound."""

from __future__ import annotations

import json

import pytest
from mcp_types import ErrorData, JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse
from pydantic import AnyUrl

from fleet_tui.controller import SessionController, Traffic
from fleet_tui.envs import traffic
from fleet_tui.envs.targets import McpTarget
from fleet_tui.envs.traffic import (
    KEPT_STRING_CHARS,
    MAX_PAYLOAD_CHARS,
    TrafficEntry,
    TrafficLog,
    TrafficRecorder,
    _kept,
    redact_url,
)
from fleet_tui.session_records import SessionEvent
from tests.fixtures.talkative import Talkative

API_KEY = "fk-live-0123456789abcdef"
TOKEN = "tok-9f8e7d6c5b4a"


async def traffic_of_one_call(server: Talkative, text: str) -> list[TrafficEntry]:
    heard: list[SessionEvent] = []
    controller = SessionController(McpTarget(urls=[server.url]))
    controller.subscribe(heard.append)
    await controller.connect()
    try:
        await controller.env.call_tool("echo", {"text": text, "token": TOKEN})
    finally:
        await controller.close_env()
    entries = [event.entry for event in heard if isinstance(event, Traffic)]
    assert entries == list(controller.traffic)
    return entries


async def test_every_message_in_and_out_is_logged_with_method_id_and_latency(
    talkative: Talkative,
) -> None:
    entries = await traffic_of_one_call(talkative, "hello")
    rpc = [(e.direction, e.kind, e.method) for e in entries if e.direction != "http"]
    assert rpc[:3] == [
        ("out", "request", "initialize"),
        ("in", "response", "initialize"),
        ("out", "notification", "notifications/initialized"),
    ]
    [call] = [e for e in entries if e.kind == "request" and e.method == "tools/call"]
    [answer] = [e for e in entries if e.kind == "response" and e.id == call.id]
    assert (answer.direction, answer.method) == ("in", "tools/call")
    assert answer.latency_s is not None and answer.latency_s > 0
    assert call.message["params"]["arguments"]["text"] == "hello"
    assert call.message["params"]["_meta"]["progressToken"] == call.id
    assert answer.message["result"]["content"][0]["text"] == "hello"
    shown = json.dumps(call.message, separators=(",", ":"))  # the token redacted
    assert call.size_bytes == len(shown) - len("[redacted]") + len(TOKEN)
    assert [e.seq for e in entries] == sorted(e.seq for e in entries)


async def test_http_requests_are_logged_with_status_and_timing(talkative: Talkative) -> None:
    entries = await traffic_of_one_call(talkative, "hello")
    http = [e for e in entries if e.direction == "http"]
    posts = [e for e in http if e.method == f"POST {talkative.url}"]
    assert len(posts) >= 3  # initialize, initialized, tools/call
    assert {e.status for e in posts} <= {200, 202}
    assert all(e.latency_s is not None and e.latency_s >= 0 for e in http)
    assert any(e.message["content_type"].startswith("text/event-stream") for e in posts)


async def test_http_entries_carry_headers_and_bodies_with_secrets_redacted(
    talkative: Talkative,
) -> None:
    heard: list[SessionEvent] = []
    target = McpTarget(urls=[talkative.url], headers={"Authorization": f"Bearer {TOKEN}"})
    controller = SessionController(target)
    controller.subscribe(heard.append)
    await controller.connect()
    try:
        await controller.env.call_tool("echo", {"text": "in the body"})
    finally:
        await controller.close_env()
    http = [e for e in controller.traffic if e.direction == "http"]
    [call] = [e for e in http if "in the body" in json.dumps(e.message["request_body"])]
    assert call.message["request_headers"]["authorization"] == "[redacted]"
    assert call.message["request_headers"]["content-type"] == "application/json"
    assert call.message["request_body"]["method"] == "tools/call"
    assert call.message["response_headers"]["content-type"].startswith("text/event-stream")
    assert call.message["response_body"] is None  # streamed: its messages are entries
    assert TOKEN not in json.dumps([e.as_json() for e in controller.traffic])


def test_the_http_filter_finds_http_entries_only() -> None:
    url = "http://127.0.0.1:9/mcp"
    message = TrafficEntry(1, 0.0, url, "out", "request", "tools/call", 1)
    request = TrafficEntry(2, 0.0, url, "http", "http", f"POST {url}", status=200)
    assert request.matches("http") and not message.matches("http")
    assert message.matches("127.0.0.1 tools/call")


async def test_secrets_never_reach_the_log(
    talkative: Talkative, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLEET_API_KEY", API_KEY)
    entries = await traffic_of_one_call(talkative, f"the key is {API_KEY}")
    logged = json.dumps([e.as_json() for e in entries])
    assert TOKEN not in logged and API_KEY not in logged
    assert "[redacted]" in logged


def entry(seq: int, size: int = 10) -> TrafficEntry:
    return TrafficEntry(seq, 0.0, "http://x/mcp", "out", "request", "ping", seq, None, size)


def test_the_log_keeps_the_latest_entries_within_its_bounds() -> None:
    log = TrafficLog(max_entries=3)
    for seq in range(1, 6):
        log.add(entry(seq))
    assert [e.seq for e in log] == [3, 4, 5] and log.dropped == 2
    by_size = TrafficLog(max_entries=100, max_chars=3 * (MAX_PAYLOAD_CHARS + 200))
    for seq in range(1, 6):
        by_size.add(entry(seq, size=10 * MAX_PAYLOAD_CHARS))  # each counts as its kept part
    assert [e.seq for e in by_size] == [3, 4, 5]


async def test_a_big_message_keeps_its_structure_with_long_strings_cut_in_the_middle(
    talkative: Talkative,
) -> None:
    text = "start" + "x" * (2 * MAX_PAYLOAD_CHARS) + "end"
    entries = await traffic_of_one_call(talkative, text)
    [call] = [e for e in entries if e.kind == "request" and e.method == "tools/call"]
    assert call.truncated and call.size_bytes > 2 * MAX_PAYLOAD_CHARS
    arguments = call.message["params"]["arguments"]
    assert arguments["token"] == "[redacted]"
    kept = arguments["text"]
    assert kept.startswith("startxx") and kept.endswith("xxend")
    assert f"…[{len(text) - KEPT_STRING_CHARS:,} characters]…" in kept


async def test_a_big_message_is_kept_from_the_message_not_from_its_json_read_back(
    talkative: Talkative, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_back: list[int] = []

    def loads(text: str | bytes) -> object:
        read_back.append(len(text))
        return json.loads(text)

    monkeypatch.setattr(traffic, "json", type("Json", (), {"loads": staticmethod(loads)}))
    text = "start" + "x" * (2 * MAX_PAYLOAD_CHARS) + "end"
    entries = await traffic_of_one_call(talkative, text)
    assert not [size for size in read_back if size > 2 * MAX_PAYLOAD_CHARS]  # no 128 KB parse
    [answer] = [e for e in entries if e.kind == "response" and e.method == "tools/call"]
    assert answer.truncated and answer.size_bytes > 2 * MAX_PAYLOAD_CHARS
    kept = answer.message["result"]["content"][0]["text"]
    assert kept.startswith("startxx") and kept.endswith("xxend")


def test_a_big_message_of_many_short_strings_is_kept_as_its_start() -> None:
    text = json.dumps(["ab"] * MAX_PAYLOAD_CHARS)  # nothing long to cut: the start is kept
    raw, kept, whole = _kept(text)
    assert raw is not None and not whole
    assert isinstance(kept, str) and kept == text[:MAX_PAYLOAD_CHARS]


SOME_MESSAGES = [
    JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call", params={"é": [None, 0.1, 1e-7]}),
    JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized"),
    JSONRPCResponse(jsonrpc="2.0", id="a", result={"text": 'quotes " and \n ' * 10_000}),
    JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=-1, message="no", data={"x": None})),
    JSONRPCRequest(jsonrpc="2.0", id=2, method="big", params={"n": 2**70}),  # past 64 bits
    JSONRPCRequest(jsonrpc="2.0", id=3, method="read", params={"uri": AnyUrl("https://h/x")}),
]


def test_a_message_is_measured_by_the_json_pydantic_writes_for_it() -> None:
    entries: list[TrafficEntry] = []
    recorder = TrafficRecorder(entries.append)
    for message in SOME_MESSAGES:
        recorder.message("http://h/mcp", "out", message)
    written = [m.model_dump_json(by_alias=True, exclude_none=True) for m in SOME_MESSAGES]
    assert [e.size_bytes for e in entries] == [len(text.encode("utf-8")) for text in written]
    assert [e.message for e in entries[-2:]] == [
        {"jsonrpc": "2.0", "id": 2, "method": "big", "params": {"n": 2**70}},
        {"jsonrpc": "2.0", "id": 3, "method": "read", "params": {"uri": "https://h/x"}},
    ]


def test_secret_query_parameters_are_hidden_in_urls() -> None:
    assert redact_url("http://h/mcp?api_key=abc&x=1") == "http://h/mcp?api_key=[redacted]&x=1"
