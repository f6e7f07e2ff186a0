"""Env text that would act on a terminal or leak a secret: bidi and C1 controls in results,
the API key split by an escape, secret `--env` values and a tool named like an option in the
copied `fleet-tui call` command."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator

import pytest
from mcp.server.mcpserver import MCPServer

from fleet_tui.envs.targets import FleetTarget, McpTarget
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, call, rendered_text, wait_connected, wait_for
from tests.cli_run import fleet_tui
from tests.fixtures.local_host import TEST_API_KEY
from tests.fixtures.mcp_servers import BEARER_SEEN, ServedMcp, serve_in_thread

SECRET = "sk-live-split-by-escapes-7777"
HIDDEN_FORMS = "right-to-left \u202eexe.txt, C1 \x85 and \x90"
SIGNED_FORMS = "right-to-left \\u202eexe.txt, C1 \\u0085 and \\u0090"
SECRET_ENV = "tok-env-never-shown-31337"


def raw_forms(text: str) -> list[str]:
    """The bidi and C1 controls in `text`."""
    return [c for c in text if c == "\u202e" or "\x80" <= c <= "\x9f"]


async def test_bidi_and_c1_controls_in_a_result_show_as_signs(mcp_alpha):
    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        entry = await call(pilot, "echo", {"text": HIDDEN_FORMS})
        assert entry.status == "ok"
        assert SIGNED_FORMS in rendered_text(app)
        assert not raw_forms(rendered_text(app) + app.export_screenshot())


def echo_json(url: str, text: str) -> subprocess.CompletedProcess:
    """`fleet-tui call --mcp URL echo --json` with `text`, the API key set to SECRET."""
    arguments = json.dumps({"text": text})
    return fleet_tui(
        *["call", "--mcp", url, "echo", "--args", arguments, "--json"],
        env={"FLEET_API_KEY": SECRET},
    )


def test_json_output_escapes_bidi_and_c1_controls(mcp_alpha):
    result = echo_json(mcp_alpha.url, HIDDEN_FORMS)

    assert result.returncode == 0, result.stderr
    assert not raw_forms(result.stdout)
    assert "\\u202eexe.txt" in result.stdout, "escaped as JSON escapes"
    assert json.loads(result.stdout)["structuredContent"]["result"] == HIDDEN_FORMS, (
        "data unchanged"
    )


def test_json_output_hides_the_api_key_split_by_an_escape(mcp_alpha):
    result = echo_json(mcp_alpha.url, f"key {SECRET[:8]}\x1b[31m{SECRET[8:]}")

    assert result.returncode == 0, result.stderr
    assert SECRET[8:] not in result.stdout
    assert json.loads(result.stdout)["structuredContent"]["result"] == "key [redacted]"


ODD_SECRET = "sk/odd+key=\u00fc 2024?"
"""An API key with characters that base64 and URL encoding change."""


def encoded_secret_forms(secret: str) -> list[str]:
    """How an env may hand the key back: base64 (standard, urlsafe, unpadded), inside longer
    base64 at each of the 3 byte offsets (as in `Basic` credentials), and URL-encoded."""
    raw = secret.encode()
    standard, urlsafe = base64.b64encode, base64.urlsafe_b64encode
    return [
        standard(raw).decode(),
        urlsafe(raw).decode().rstrip("="),
        standard(b"user:" + raw).decode(),
        *(
            encode(b"x" * offset + raw + b"tail").decode()
            for offset in range(3)
            for encode in (standard, urlsafe)
        ),
        urllib.parse.quote(secret, safe=""),
        urllib.parse.quote_plus(secret),
    ]


def test_the_api_key_base64_or_url_encoded_is_hidden_in_output_and_trace(mcp_alpha, tmp_path):
    forms = encoded_secret_forms(ODD_SECRET)
    trace = tmp_path / "trace.jsonl"
    arguments = json.dumps({"text": " | ".join(forms)})
    result = fleet_tui(
        *["call", "--mcp", mcp_alpha.url, "echo", "--args", arguments, "--json"],
        *["--trace", str(trace)],
        env={"FLEET_API_KEY": ODD_SECRET},
    )

    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)["structuredContent"]["result"].split(" | ")
    assert len(shown) == len(forms) and all("[redacted]" in part for part in shown)
    for form in forms:
        assert form not in result.stdout and form not in trace.read_text()


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_an_env_echoing_a_secret_env_value_does_not_print_it(mcp_alpha, as_json):
    flags = ["--json"] if as_json else []
    result = fleet_tui(
        *["call", "--mcp", mcp_alpha.url, "--env", f"API_TOKEN={SECRET_ENV}", "echo"],
        *["-a", f"text=token {SECRET_ENV}", *flags],
    )

    assert result.returncode == 0, result.stderr
    assert SECRET_ENV not in result.stdout + result.stderr
    assert "token [redacted]" in result.stdout


async def test_the_copied_command_and_its_toast_redact_secret_env_values(local_host):
    target = FleetTarget(
        env_key="tracker",
        base_url=local_host.base_url,
        api_key=TEST_API_KEY,
        env_variables={"API_TOKEN": SECRET_ENV, "MODE": "fast"},
    )
    app = FleetTuiApp(target)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_connected(pilot)
        await app.show_tool("list_issues", {})
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.clipboard)
        assert "--env 'API_TOKEN=[redacted]' --env MODE=fast" in app.clipboard
        toasts = " ".join(notification.message for notification in app._notifications)
        assert app.clipboard in toasts
        assert SECRET_ENV not in app.clipboard + toasts + app.export_screenshot()


@pytest.fixture
def lure() -> Iterator[ServedMcp]:
    """A server no call should reach."""
    BEARER_SEEN["lure"] = []
    served = serve_in_thread("lure", MCPServer("lure", log_level="WARNING"))
    yield served
    served.stop()


async def test_a_tool_named_like_an_option_stays_a_name_when_the_copied_command_runs(lure):
    name = f"--mcp={lure.url}"
    server = MCPServer("dashes", log_level="WARNING")
    server.add_tool(lambda: "called by its name", name=name, description="An option?")
    dashes = serve_in_thread("dashes", server)
    try:
        app = FleetTuiApp(McpTarget(urls=[dashes.url]))
        async with app.run_test(size=SIZE) as pilot:
            await wait_connected(pilot)
            await app.show_tool(name)
            await pilot.press("ctrl+y")
            command = await wait_for(pilot, lambda: app.clipboard)
        bin_dir = os.path.dirname(sys.executable)  # where `fleet-tui` is installed
        pasted = subprocess.run(
            ["bash", "-c", command],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
        )
    finally:
        dashes.stop()

    assert pasted.returncode == 0, pasted.stderr
    assert "called by its name" in pasted.stdout
    assert BEARER_SEEN["lure"] == [], "the name did not become --mcp"
