"""What a process imports depends on its path: a headless command against an MCP server loads
the mcp SDK's client modules, not its server code, and no UI code."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.fixtures.mcp_servers import ServedMcp

NOT_FOR_A_CLIENT = ("starlette", "uvicorn", "click", "cryptography", "mcp.server")
NOT_HEADLESS = ("textual", "textual_image", "numpy", "fleet_tui.ui")


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60
    )


def loaded(modules: list[str], roots: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == r or m.startswith(r + ".") for r in roots)]


def test_a_headless_command_loads_neither_server_code_nor_the_ui(mcp_alpha: ServedMcp):
    done = run_python(
        f"""
        import json, sys
        from fleet_tui.cli import main
        code = main(["tools", "--mcp", {mcp_alpha.url!r}])
        print(json.dumps(sorted(sys.modules)), file=sys.stderr)
        sys.exit(code)
        """
    )
    assert done.returncode == 0, done.stderr
    assert "echo" in done.stdout
    modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert "mcp.client.session" in modules
    assert loaded(modules, NOT_FOR_A_CLIENT) == []
    assert loaded(modules, NOT_HEADLESS) == []


def test_the_mcp_packages_are_whole_when_code_asks_for_their_names():
    done = run_python(
        """
        from fleet_tui.envs.mcp_import import load_client_modules_only
        load_client_modules_only()
        import mcp.client.session
        from mcp import types
        assert types.Tool is not None
        from mcp import ClientSession, Client
        import mcp, mcp.client
        assert ClientSession is mcp.client.session.ClientSession is mcp.client.ClientSession
        assert Client is mcp.client.client.Client and mcp.stdio_client
        print("whole")
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "whole"
