"""The local host's gate, over real HTTP: a request with a foreign Host (DNS rebinding), a foreign
Origin (another web page), a non-JSON body (a form post needs no CORS preflight), no token or a
wrong token is refused with a 4xx and a one-line reason, and creates no instance and runs no
verifier code; the host's own callers still get through."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.fixtures.local_host import AUTH, MCP_INITIALIZE, TEST_API_KEY, execute_body

MARK = """
def mark(env, final_answer=None):
    with open({path!r}, "w") as file:
        file.write("verifier code ran")
    return TASK_SUCCESSFUL_SCORE
"""

REFUSED = {
    "foreign host": ({"Host": "attacker.example"}, 400, "Host header"),
    "foreign host on the host's port": ({"Host": "attacker.example:{port}"}, 400, "Host header"),
    "foreign origin": ({"Origin": "http://attacker.example"}, 403, "Origin header"),
    "another local port as origin": ({"Origin": "http://127.0.0.1:1"}, 403, "Origin header"),
    "text/plain body": ({"Content-Type": "text/plain"}, 415, "must be JSON"),
    "form body": ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "must be JSON"),
    "no token": ({"Authorization": None}, 401, "needs its token"),
    "wrong token": ({"Authorization": "Bearer not-the-token"}, 401, "not this host's token"),
    "wrong scheme": ({"Authorization": f"Basic {TEST_API_KEY}"}, 401, "needs its token"),
}


def send(host, method: str, url: str, body: dict | None = None, **changes: str | None):
    """A raw request with the test token and a JSON body, then `changes` to its headers (None
    drops a header); `{port}` in a value is the host's port."""
    headers = {"Content-Type": "application/json", **AUTH}
    for name, value in changes.items():
        headers.pop(name, None)
        if value is not None:
            headers[name] = value.format(port=host.port)
    content = json.dumps(body).encode() if body is not None else None
    return httpx.request(method, url, content=content, headers=headers, timeout=30)


def assert_refused(response: httpx.Response, status: int, reason: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert reason in detail and "\n" not in detail


@pytest.mark.parametrize(("changes", "status", "reason"), REFUSED.values(), ids=REFUSED)
def test_a_refused_create_makes_no_instance(local_host, changes, status, reason):
    before = set(local_host.registry.instances)
    url = f"{local_host.base_url}/v1/env/instances"
    response = send(local_host, "POST", url, {"env_key": "tracker"}, **changes)
    assert_refused(response, status, reason)
    assert set(local_host.registry.instances) == before


@pytest.mark.parametrize(("changes", "status", "reason"), REFUSED.values(), ids=REFUSED)
def test_a_refused_verifier_runs_no_code(local_host, tracker_id, tmp_path, changes, status, reason):
    marker = tmp_path / "ran"
    body = execute_body(MARK.format(path=str(marker)), "mark", tracker_id)
    url = f"{local_host.base_url}/v1/verifiers/execute"
    assert_refused(send(local_host, "POST", url, body, **changes), status, reason)
    assert not marker.exists()
    allowed = send(local_host, "POST", url, body, Origin="http://127.0.0.1:{port}")
    assert allowed.status_code == 200 and allowed.json()["success"], allowed.text
    assert marker.read_text() == "verifier code ran"


def test_the_host_answers_to_its_own_loopback_names_only(local_host):
    url = f"{local_host.base_url}/v1/env/"
    for name in ("127.0.0.1", "localhost", "[::1]", "LOCALHOST"):
        own = f"{name}:{{port}}"
        response = send(local_host, "GET", url, Host=own, Origin=f"http://{own}")
        assert response.status_code == 200 and "tracker" in response.text, name
    for name in ("127.0.0.1.attacker.example:{port}", "localhost", "127.0.0.1:{port}0"):
        assert_refused(send(local_host, "GET", url, Host=name), 400, "Host header")
    for origin in ("https://127.0.0.1:{port}", "null", "http://localhost"):
        assert_refused(send(local_host, "GET", url, Origin=origin), 403, "Origin header")


def test_instance_calls_and_mcp_endpoints_need_the_token_too(local_host, tracker_id):
    root = f"{local_host.base_url}/instances/{tracker_id}/"
    initialize = MCP_INITIALIZE
    accept = "application/json, text/event-stream"
    for path in ("mcp", "api/v1/mcp"):
        refused = send(local_host, "POST", root + path, initialize, Authorization=None)
        assert_refused(refused, 401, "needs its token")
        plain = send(local_host, "POST", root + path, initialize, **{"Content-Type": "text/plain"})
        assert_refused(plain, 415, "must be JSON")
        answered = send(local_host, "POST", root + path, initialize, Accept=accept)
        assert answered.status_code == 200, answered.text
    query = {"query": "DELETE FROM issues", "read_only": False}
    url = f"{root}api/v1/env/resources/sqlite/current/query"
    assert_refused(send(local_host, "POST", url, query, Authorization=None), 401, "needs its")
    count = {"query": "SELECT count(*) FROM issues", "read_only": True}
    assert send(local_host, "POST", url, count).json()["rows"] == [[8]]


def test_the_runner_token_the_sdk_fetches_is_the_host_token(local_host, tracker_id):
    """The SDK's instance calls carry no Authorization header, only `X-Runner-Token`."""
    url = f"{local_host.base_url}/v1/runner-auth/token"
    assert send(local_host, "GET", url).json() == {"token": TEST_API_KEY}
    health = f"{local_host.base_url}/instances/{tracker_id}/api/v1/env/health"
    as_runner = {"Authorization": None, "X-Runner-Token": TEST_API_KEY}
    assert send(local_host, "GET", health, **as_runner).status_code == 200
    wrong = {"Authorization": None, "X-Runner-Token": "guess"}
    assert_refused(send(local_host, "GET", health, **wrong), 401, "not this host's token")
