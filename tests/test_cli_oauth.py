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
import time
from pathlib import Path

import httpx2
import pytest

from fleet_tui.envs.oauth_store import sign_in_file
from tests.cli_run import child_env, fleet_tui
from tests.fixtures.oauth_server import SignedInServer

STOP_BOUND_S = 4.0
"""How soon a stop signal ends a command: under a second unloaded; what it must stay below is
the 5 s an endpoint is given to close a session, which one still signing in does not have."""
STOPS = [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")]

AUTHORIZATION_URL = re.compile(r"^  (http://127\.0\.0\.1:\d+/authorize\?\S+)$")


def started(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(env),
    )


def printed_url(child: subprocess.Popen) -> tuple[str, str]:
    """Read the child's stderr up to the authorization URL; the URL and the stderr read."""
    assert child.stderr is not None
    seen = []
    for line in child.stderr:
        seen.append(line)
        if found := AUTHORIZATION_URL.match(line.rstrip("\n")):
            return found.group(1), "".join(seen)
    raise AssertionError(f"no authorization URL printed: {''.join(seen)}")


def open_printed_url(child: subprocess.Popen) -> str:
    """Read the child's stderr up to the authorization URL and open it like a browser; the
    stderr read."""
    url, seen = printed_url(child)
    page = httpx2.get(url, follow_redirects=True, timeout=10)
    assert page.status_code == 200, page.text
    return seen


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


def stopped(child: subprocess.Popen, number: int) -> tuple[str, float]:
    """Send the signal `number`; the rest of the child's stderr and how long it took to end."""
    sent = time.monotonic()
    child.send_signal(number)
    _, rest = child.communicate(timeout=60)
    return rest, time.monotonic() - sent


@pytest.mark.parametrize(("number", "code", "said"), STOPS)
def test_a_stop_signal_while_waiting_for_the_browser_ends_the_command_at_once(
    oauth_server: SignedInServer, tmp_path: Path, number: int, code: int, said: str
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    child = started(["tools", "--mcp", oauth_server.url], state)
    try:
        _, seen = printed_url(child)
        time.sleep(0.5)  # the command is waiting for the browser
        rest, took = stopped(child, number)
    finally:
        child.kill()
    assert child.returncode == code, seen + rest
    assert took < STOP_BOUND_S
    assert f"fleet-tui: {said}" in rest and "Traceback" not in seen + rest


@pytest.mark.parametrize(("number", "code", "said"), STOPS)
def test_a_stop_signal_while_a_signed_in_listing_hangs_ends_the_command_at_once(
    oauth_server: SignedInServer, tmp_path: Path, number: int, code: int, said: str
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    _, stderr, signed_in = sign_in_through_stderr(["tools", "--mcp", oauth_server.url], state)
    assert signed_in == 0, stderr
    oauth_server.side.listing_hangs = True
    oauth_server.side.listing_asked.clear()
    child = started(["tools", "--mcp", oauth_server.url], state)
    try:
        assert oauth_server.side.listing_asked.wait(30)
        rest, took = stopped(child, number)
    finally:
        child.kill()
    assert child.returncode == code, rest
    assert took < STOP_BOUND_S
    assert f"fleet-tui: {said}" in rest and "Traceback" not in rest


def test_a_server_that_wants_a_token_and_offers_no_sign_in_is_told_to_take_a_header(
    token_only_url: str, tmp_path: Path
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    for kind in ("realm", "bare"):
        result = fleet_tui("tools", "--mcp", f"{token_only_url}/{kind}/mcp", env=state)
        assert result.returncode == 2, result.stderr
        assert "wants a token" in result.stderr and "Registration" not in result.stderr
        assert "--header 'Authorization: Bearer TOKEN'" in result.stderr
        assert "sign in" not in result.stderr and "Traceback" not in result.stderr


def test_sigterm_while_signing_in_again_mid_session_ends_the_command_at_once(
    oauth_server: SignedInServer, tmp_path: Path
) -> None:
    state = {"XDG_STATE_HOME": str(tmp_path / "state")}
    _, stderr, signed_in = sign_in_through_stderr(["tools", "--mcp", oauth_server.url], state)
    assert signed_in == 0, stderr
    oauth_server.side.listing_asked.clear()
    child = started(["call", "--mcp", oauth_server.url, "whoami"], state)
    try:
        assert oauth_server.side.listing_asked.wait(30)
        oauth_server.provider.access.clear()  # revoked: the call is asked to sign in again
        _, seen = printed_url(child)
        time.sleep(0.5)  # the call is waiting for the browser
        rest, took = stopped(child, signal.SIGTERM)
    finally:
        child.kill()
    assert child.returncode == 143, seen + rest
    assert took < STOP_BOUND_S
    assert "fleet-tui: terminated" in rest and "Traceback" not in seen + rest
