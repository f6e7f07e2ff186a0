"""What a process imports depends on its path: a headless command against an MCP server loads
the mcp SDK's client modules, not its server code, no UI code, no session file's models
(it records nothing), no OAuth client (nobody asks for a sign-in) and no verifier (it verifies
nothing); of the SDK's protocol models, it builds the validators of those its session uses."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from tests.fixtures.mcp_servers import ServedMcp

NOT_FOR_A_CLIENT = ("starlette", "uvicorn", "click", "cryptography", "mcp.server")
NOT_HEADLESS = ("textual", "textual_image", "numpy", "fleet_tui.ui", "fleet_tui.commands.app")
NOT_UNRECORDED = ("fleet_tui.session",)
"""A session file's models: a command that records nothing reads and writes none."""
NOT_SIGNING_IN = ("mcp.client.auth", "mcp.shared.auth", "fleet_tui.envs.oauth_flow")
"""The SDK's OAuth client: a server that asks for no sign-in needs none of it."""
NOT_VERIFYING = ("fleet_tui.tasks.verify", "sqlite3")
"""A verifier's machinery (its child processes, database snapshots): nothing is verified."""


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
    assert loaded(modules, NOT_UNRECORDED) == []
    assert loaded(modules, NOT_SIGNING_IN) == []
    assert loaded(modules, NOT_VERIFYING) == []


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


def test_a_call_builds_the_validators_of_the_wire_models_it_uses_only(mcp_alpha: ServedMcp):
    done = run_python(
        f"""
        import json, sys
        from fleet_tui.cli import main
        code = main(["call", "--mcp", {mcp_alpha.url!r}, "echo", "-a", "text=hi"])
        from pydantic import BaseModel
        from mcp_types._wire_base import WireModel
        import mcp_types._v2025_11_25 as v2025, mcp_types._v2026_07_28 as v2026
        models = [
            model
            for revision in (v2025, v2026)
            for model in vars(revision).values()
            if isinstance(model, type) and issubclass(model, BaseModel) and model is not WireModel
        ]
        counts = {{
            "models": len(models),
            "not wire models": [m.__name__ for m in models if not issubclass(m, WireModel)],
            "built": sum(m.__pydantic_complete__ for m in models),
        }}
        print(json.dumps(counts), file=sys.stderr)
        sys.exit(code)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "hi"
    counts = json.loads(done.stderr.strip().splitlines()[-1])
    # The deferral is set on WireModel, their shared base: a revision model outside it would
    # be built at import again (the SDK changed under mcp_import.defer_wire_schemas).
    assert counts["not wire models"] == []
    assert counts["models"] > 200
    # The call checked its messages against them (validators built inside the SDK's adapters),
    # yet no model class had its own validator built at import.
    assert counts["built"] < 20, counts
