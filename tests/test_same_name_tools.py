"""Two endpoints serving tools of the same name (two builds of one server, side by side): each
such tool is reached as `LABEL/NAME` on its own endpoint, in `tools --json` and `call`; the
bare name says which qualified names to use."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.cli_run import assert_one_line_error, fleet_tui
from tests.fixtures.mcp_servers import ServedMcp, serve_in_thread


@pytest.fixture(scope="module")
def alpha_again() -> Iterator[ServedMcp]:
    """A second build of the server `alpha`: the same name and the same tools."""
    served = serve_in_thread("alpha")
    yield served
    served.stop()


def test_both_builds_list_every_tool_qualified_by_their_position(mcp_alpha, alpha_again):
    result = fleet_tui("tools", "--json", "--mcp", mcp_alpha.url, "--mcp", alpha_again.url)
    assert result.returncode == 0, result.stderr
    owners = {tool["name"]: tool["endpoint"] for tool in json.loads(result.stdout)["tools"]}
    assert owners["alpha-1/whoami"] == mcp_alpha.url
    assert owners["alpha-2/whoami"] == alpha_again.url
    assert len(owners) == 10 and "whoami" not in owners
    assert "different schemas" not in result.stderr


def test_a_qualified_call_reaches_its_own_endpoint(mcp_alpha, alpha_again):
    result = fleet_tui(
        "call", "--json", "--mcp", mcp_alpha.url, "--mcp", alpha_again.url,
        "alpha-2/shared", "-a", "text=hi",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    called = json.loads(result.stdout)
    assert called["endpoint"] == alpha_again.url
    assert called["blocks"][0]["text"] == "alpha:hi"


def test_the_bare_name_says_which_qualified_names_to_call(mcp_alpha, alpha_again):
    result = fleet_tui("call", "--mcp", mcp_alpha.url, "--mcp", alpha_again.url, "whoami")
    assert_one_line_error(
        result, 2, "tool 'whoami' is offered by several endpoints: call one of "
        "alpha-1/whoami, alpha-2/whoami",
    )  # fmt: skip


def test_servers_of_different_names_are_told_apart_by_name(mcp_alpha, mcp_beta):
    result = fleet_tui("call", "--mcp", mcp_alpha.url, "--mcp", mcp_beta.url, "beta/whoami")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "beta"
