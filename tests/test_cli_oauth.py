"""`fleet-tui tools --mcp URL` against a server that asks for OAuth, run as a user runs it:
the authorization URL on stderr, a "browser" (an HTTP client following its redirects) opens
it, the command lists the tools; a second run signs in with the kept token, asking no one."""

from __future__ import annotations

import json
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import httpx2

from fleet_tui.envs.oauth_store import sign_in_file
from tests.cli_run import child_env, fleet_tui
from tests.fixtures.oauth_server import SignedInServer

AUTHORIZATION_URL = re.compile(r"^  (http://127\.0\.0\.1:\d+/authorize\?\S+)$")


def started(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(env),
    )


def open_printed_url(child: subprocess.Popen) -> str:
    """Read the child's stderr up to the authorization URL and open it like a browser; the
    stderr read."""
    assert child.stderr is not None
    seen = []
    for line in child.stderr:
        seen.append(line)
        if found := AUTHORIZATION_URL.match(line.rstrip("\n")):
            page = httpx2.get(found.group(1), follow_redirects=True, timeout=10)
            assert page.status_code == 200, page.text
            break
    return "".join(seen)


def sign_in_through_stderr(command: list[str], env: dict[str, str]) -> tuple[str, str, int]:
    """Run `python -m fleet_tui COMMAND`, open the authorization URL it prints like a browser;
    its stdout, stderr and exit code."""
    child = started(command, env)
    try:
        seen = open_printed_url(child)
        stdout, rest = child.communicate(timeout=60)
    finally:
        child.kill()
    return stdout, seen + rest, child.returncode


def test_tools_signs_in_where_the_server_asks_and_keeps_no_token_in_the_trace(
    oauth_server: SignedInServer, tmp_path: Path
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    trace = tmp_path / "trace.jsonl"
    command = ["tools", "--mcp", oauth_server.url, "--trace", str(trace)]
    stdout, stderr, code = sign_in_through_stderr(command, state)
    assert code == 0, stderr
    assert "whoami" in stdout
    assert f"{oauth_server.url} asks you to sign in (OAuth)" in stderr
    assert oauth_server.provider.authorizations == 1

    kept = tmp_path / "state" / "fleet-tui" / "oauth" / sign_in_file(oauth_server.url).name
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert json.loads(kept.read_text())["tokens"]["access_token"] in oauth_server.provider.issued
    written = trace.read_text() + stdout + stderr
    assert "/token" in trace.read_text()  # the token request is in the trace, not what it got
    for token in oauth_server.provider.issued:
        assert token not in written

    again = fleet_tui("tools", "--mcp", oauth_server.url, env=state)
    assert again.returncode == 0, again.stderr
    assert "whoami" in again.stdout
    assert "sign in" not in again.stderr and "/authorize" not in again.stderr
    assert oauth_server.provider.authorizations == 1


def test_an_authorization_header_given_means_no_sign_in(
    oauth_server: SignedInServer, tmp_path: Path
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    result = fleet_tui(
        "tools",
        "--mcp",
        oauth_server.url,
        "--header",
        "Authorization: Bearer wrong-token",
        env=state,
    )
    assert result.returncode == 2
    assert "HTTP 401" in result.stderr and "sign in" not in result.stderr
    assert oauth_server.provider.authorizations == 0


def test_logout_forgets_the_kept_sign_in(oauth_server: SignedInServer, tmp_path: Path) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    _, stderr, code = sign_in_through_stderr(["tools", "--mcp", oauth_server.url], state)
    assert code == 0, stderr
    forgotten = fleet_tui("logout", oauth_server.url, env=state)
    assert forgotten.returncode == 0 and f"signed out of {oauth_server.url}" in forgotten.stdout
    assert not list((tmp_path / "state" / "fleet-tui" / "oauth").glob("*.json"))
    _, stderr, code = sign_in_through_stderr(["tools", "--mcp", oauth_server.url], state)
    assert code == 0 and "asks you to sign in" in stderr
    assert oauth_server.provider.authorizations == 2


def test_logout_all_removes_every_sign_in_file_even_unreadable_ones(tmp_path: Path) -> None:
    kept = tmp_path / "state" / "fleet-tui" / "oauth"
    kept.mkdir(parents=True)
    (kept / "garbled.json").write_text("{not json")
    (kept / "renamed.json").write_text(json.dumps({"server_url": "http://127.0.0.1:9/mcp"}))
    forgotten = fleet_tui("logout", "--all", env={"XDG_STATE_HOME": str(tmp_path / "state")})
    assert forgotten.returncode == 0, forgotten.stderr
    assert "signed out of garbled.json" in forgotten.stdout
    assert "signed out of http://127.0.0.1:9/mcp" in forgotten.stdout
    assert not list(kept.glob("*.json"))


def test_the_proxy_signs_in_to_a_server_that_asks(
    oauth_server: SignedInServer, tmp_path: Path
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    child = started(["proxy", "--mcp", oauth_server.url, "--no-record"], state)
    try:
        stderr = open_printed_url(child)
        assert child.stdout is not None
        serving = json.loads(child.stdout.readline())
    finally:
        child.send_signal(signal.SIGTERM)
        child.communicate(timeout=60)
    assert f"{oauth_server.url} asks you to sign in (OAuth)" in stderr
    assert serving["url"].startswith("http://127.0.0.1:")
    assert oauth_server.provider.authorizations == 1
