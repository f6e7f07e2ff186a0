"""`fleet-tui openenv serve` answers only its own callers: a real openenv-core server (ShowcaseEnv)
served by the real launcher, attacked as a web page would (a cross-site WebSocket, a rebinding
POST) and without its token; fleet-tui's own client, given the token or finding the one the
server kept, resets and steps it, and the token shows nowhere."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest

from fleet_tui.envs.errors import EnvError
from fleet_tui.envs.openenv import OpenEnvEnv
from fleet_tui.envs.openenv_token import TOKEN_ENV_VAR, kept_token, server_token
from fleet_tui.envs.targets import OpenEnvTarget
from tests.cli_run import fleet_tui
from tests.fixtures.openenv_servers import REPO_ROOT, refused_upgrade, serve_with_launcher
from tests.recorded import call_tool, recorded

pytestmark = pytest.mark.timeout(120)

SHOWCASE_APP = f"""
import sys
sys.path.insert(0, {str(REPO_ROOT)!r})
from tests.fixtures.openenv_showcase import make_app
app = make_app()
"""
EVIL = "https://evil.example"


@pytest.fixture(scope="module")
def state_home(tmp_path_factory) -> Path:
    """The state folder `openenv serve` keeps its token in (`$XDG_STATE_HOME`)."""
    return tmp_path_factory.mktemp("state")


@pytest.fixture(scope="module")
def served(tmp_path_factory, state_home):
    """ShowcaseEnv as a package `openenv import` could have made, served by `fleet-tui openenv
    serve` with this Python (it has openenv-core and uvicorn)."""
    package = tmp_path_factory.mktemp("gen") / "showcase"
    (package / "server").mkdir(parents=True)
    for init in (package / "__init__.py", package / "server" / "__init__.py"):
        init.write_text("")
    (package / "server" / "app.py").write_text(SHOWCASE_APP)
    server = serve_with_launcher(Path(sys.prefix), package, env={"XDG_STATE_HOME": str(state_home)})
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_token_around(monkeypatch, tmp_path):
    """No token from the environment, and no kept one, unless a test says so."""
    monkeypatch.delenv(TOKEN_ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_cross_site_websocket_is_refused(served):
    """What a web page's script sends (it cannot add a header), and even with the token."""
    status, detail = await refused_upgrade(served, origin=EVIL)
    assert status == 403 and "Origin header" in detail
    with_token = {"origin": EVIL, "additional_headers": bearer(served.token)}
    assert await refused_upgrade(served, **with_token) == (status, detail)


def test_a_rebinding_post_is_refused(served):
    """A page whose name was rebound to 127.0.0.1 sends its own name as the Host."""
    port = served.base_url.rsplit(":", 1)[1]
    for host in ("evil.example", f"evil.example:{port}"):
        response = httpx.post(
            f"{served.base_url}/reset",
            json={"seed": 1},
            headers={"Host": host, **bearer(served.token)},
            timeout=30,
        )
        assert response.status_code == 400, response.text
        assert response.json() == {
            "detail": "this host answers only to its loopback address (Host header)"
        }


@pytest.mark.parametrize(
    ("headers", "reason"),
    [({}, "needs its token"), (bearer("not-the-token"), "not this host's token")],
    ids=["no token", "wrong token"],
)
async def test_without_the_token_nothing_gets_through(served, headers, reason):
    for method, path, body in [
        ("POST", "/reset", {"seed": 1}),
        ("POST", "/step", {"action": {"type": "list_tools"}}),
        ("POST", "/mcp", {"jsonrpc": "2.0", "method": "tools/list", "id": 1}),
        ("GET", "/metadata", None),
    ]:
        url = f"{served.base_url}{path}"
        response = httpx.request(method, url, json=body, headers=headers, timeout=30)
        assert response.status_code == 401, (path, response.text)
        assert reason in response.json()["detail"]
    status, detail = await refused_upgrade(served, additional_headers=headers)
    assert status == 401 and reason in detail


async def test_fleet_tuis_client_with_the_token_resets_and_steps(served):
    env = OpenEnvEnv(OpenEnvTarget(url=served.base_url, token=served.token), seed=3)
    lines: list[str] = []
    try:
        await env.connect(lines.append)
        assert any("seed 3" in line for line in lines)
        assert "echo" in [tool.name for tool in await env.list_tools()]
        result = await env.call_tool("echo", {"text": "through the guard"})
        assert not result.is_error and result.text() == "through the guard"
        assert (await env.state())["step_count"] == 1  # the echo step
    finally:
        await env.close()


def test_the_cli_finds_the_token_the_server_kept(served, state_home):
    """No token given: the one `openenv serve` kept for its port, in the user's state folder."""
    state = {"XDG_STATE_HOME": str(state_home)}
    called = fleet_tui("call", "--openenv", served.base_url, "echo", "-a", "text=hi", env=state)
    assert called.returncode == 0, called.stderr
    step = called.stdout.splitlines().index("step result:")  # after the reset's observation
    assert called.stdout.splitlines()[step + 1] == "hi"
    tasks = fleet_tui("tasks", "--openenv", served.base_url, env=state)
    assert tasks.returncode == 0 and "has no task routes" in tasks.stdout, tasks.stderr


def test_the_kept_token_goes_only_to_a_loopback_server_on_its_port(served, state_home, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(state_home))
    port = served.base_url.rsplit(":", 1)[1]
    for url in (served.base_url, f"http://localhost:{port}", f"ws://127.0.0.1:{port}/ws"):
        assert kept_token(url) == served.token, url
    assert kept_token(f"http://evil.example:{port}") is None
    assert server_token(None, f"http://evil.example:{port}") is None
    monkeypatch.setenv(TOKEN_ENV_VAR, "from-the-environment")
    assert server_token(None, served.base_url) == "from-the-environment"
    assert server_token("given", served.base_url) == "given"


def test_without_the_token_the_client_says_why_in_plain_words(served):
    called = fleet_tui("call", "--openenv", served.base_url, "echo", "-a", "text=hi")
    assert called.returncode != 0
    assert "HTTP 401: this server needs its token" in called.stderr
    assert "Traceback" not in called.stderr
    wrong = fleet_tui("call", "--openenv", served.base_url, "--openenv-token", "guess", "echo")
    assert "HTTP 401: the token sent is not this host's token" in wrong.stderr


def test_the_token_is_never_shown(served):
    """An env that says the token back: fleet-tui prints `[redacted]` in its place."""
    echo = ["echo", "-a", f"text=token {served.token}"]
    called = fleet_tui("call", "--openenv", served.base_url, "--openenv-token", served.token, *echo)
    assert called.returncode == 0, called.stderr
    assert served.token not in called.stdout + called.stderr
    assert "token [redacted]" in called.stdout


async def test_the_token_is_never_recorded(served, tmp_path):
    target = OpenEnvTarget(url=served.base_url, token=served.token)
    assert served.token not in repr(target) + json.dumps(target.model_dump())
    path = tmp_path / "session.jsonl"
    async with recorded(target, path, lambda t: OpenEnvEnv(t, seed=1)) as session:
        await call_tool(session, "echo", {"text": served.token})
    text = path.read_text()
    assert '"echo"' in text and "[redacted]" in text
    assert served.token not in text


def test_a_token_no_header_can_carry_is_refused_in_plain_words(served, monkeypatch):
    monkeypatch.setenv(TOKEN_ENV_VAR, "two words")
    with pytest.raises(EnvError, match="the OpenEnv token is not visible ASCII characters"):
        server_token(None, served.base_url)
    given = fleet_tui("call", "--openenv", served.base_url, "--openenv-token", "two words", "echo")
    assert given.returncode == 2
    assert "a token is visible ASCII characters without spaces" in given.stderr
