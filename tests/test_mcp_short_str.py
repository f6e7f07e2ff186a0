"""The SDK's JSON-RPC envelopes print short once fleet-tui's MCP layer is loaded."""

from __future__ import annotations

import mcp.client.streamable_http as sdk_http

import fleet_tui.envs.mcp_http  # noqa: F401  (what every MCP connection loads)
from fleet_tui.envs.mcp_short_str import ENVELOPES


def test_the_sdk_still_logs_the_classes_that_are_patched() -> None:
    # Fails when an SDK update renames or replaces the envelopes its transport formats.
    for envelope in ENVELOPES:
        assert getattr(sdk_http, envelope.__name__) is envelope


def test_a_huge_response_prints_as_its_type_and_id() -> None:
    message = sdk_http.jsonrpc_message_adapter.validate_json(
        '{"jsonrpc": "2.0", "id": 7, "result": {"text": "%s"}}' % ("x" * 1_000_000)
    )
    assert f"SSE message: {message}" == "SSE message: JSONRPCResponse(id=7)"
    assert repr(message) == "JSONRPCResponse(id=7)"


def test_a_request_prints_its_method() -> None:
    request = sdk_http.JSONRPCRequest(
        jsonrpc="2.0", id=1, method="tools/call", params={"a": "b" * 10_000}
    )
    assert str(request) == "JSONRPCRequest(id=1, method='tools/call')"
