"""The local host and a client that goes away mid-request (as 1000 rapid calls do): the host
lets the request go without a traceback in its log, and keeps answering."""

from __future__ import annotations

import logging
import socket
import time
from urllib.parse import urlsplit

import httpx

from fleet_tui.local.runner import LocalHost
from tests.fixtures.local_host import AUTH, TEST_API_KEY


def send_half_a_request(host: LocalHost, path: str) -> None:
    """Headers announcing a 1000-byte JSON body, ten bytes of it, then the socket closed."""
    address = urlsplit(host.base_url)
    with socket.create_connection((address.hostname, address.port)) as client:
        client.sendall(
            (
                f"POST {path} HTTP/1.1\r\nHost: {address.netloc}\r\n"
                f"Authorization: Bearer {TEST_API_KEY}\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                '{"query": '
            ).encode()
        )
        time.sleep(0.2)  # the host is reading the body when the client goes


def wait_until_no_request_runs(host: LocalHost, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while host._server.server_state.tasks and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not host._server.server_state.tasks, "the host still handles the request"


def test_a_client_gone_mid_request_leaves_no_traceback(local_host, tracker_id, caplog):
    path = f"/instances/{tracker_id}/api/v1/env/resources/sqlite/current/query"
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            send_half_a_request(local_host, path)
        wait_until_no_request_runs(local_host)
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == []
    answer = httpx.post(
        local_host.base_url + path, json={"query": "SELECT count(*) FROM users"}, headers=AUTH
    )
    assert answer.status_code == 200 and answer.json()["rows"] == [[4]]
