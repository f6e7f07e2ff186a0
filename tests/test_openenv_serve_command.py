"""`fleet-tui openenv serve` and `check --openenv` say in plain words what is missing before they
start anything.
(It serving real envs is tested end to end in test_openenv_import_verifiers*.py.)"""

from __future__ import annotations

import ast
import signal
import sys
from pathlib import Path

import httpx
import pytest

from fleet_tui.cli import main
from fleet_tui.commands.openenv import LAUNCHER
from fleet_tui.openenv_serve import GUARD
from tests.fixtures.openenv_servers import serve_with_launcher
from tests.test_layers import _imported_roots


def package_dir(tmp_path):
    package = tmp_path / "arith"
    (package / "server").mkdir(parents=True)
    (package / "server" / "app.py").write_text("app = None\n")
    return package


def test_a_folder_openenv_import_did_not_make_is_refused(tmp_path, capsys):
    assert main(["openenv", "serve", str(tmp_path), "--venv", str(tmp_path)]) == 2
    assert "has no server/app.py: give the folder `openenv import` made" in capsys.readouterr().err


def test_a_venv_without_python_is_refused(tmp_path, capsys):
    package = package_dir(tmp_path)
    assert main(["openenv", "serve", str(package), "--venv", str(tmp_path / "nowhere")]) == 2
    assert f"no Python at {tmp_path}/nowhere/bin/python" in capsys.readouterr().err


def test_without_a_venv_it_says_how_to_name_one(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENENV_VENV", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["openenv", "serve", str(package_dir(tmp_path))]) == 2
    assert "which virtualenv has openenv? Give --venv DIR" in capsys.readouterr().err


def test_a_bad_port_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["openenv", "serve", str(package_dir(tmp_path)), "--port", "70000"])
    assert exit.value.code == 2
    assert "'70000' is not a port number" in capsys.readouterr().err


def test_an_openenv_token_without_an_openenv_server_is_refused(capsys):
    assert main(["tools", "--mcp", "http://127.0.0.1:1/mcp", "--openenv-token", "t0ken"]) == 2
    assert "--openenv-token is sent to an OpenEnv server: add --openenv URL" in (
        capsys.readouterr().err
    )


def test_check_needs_a_task_file_or_an_openenv_server(capsys):
    assert main(["check"]) == 2
    assert "give --tasks FILE, or --openenv URL" in capsys.readouterr().err


def test_check_on_a_server_without_task_routes_says_so(openenv_server, capsys):
    assert main(["check", "--openenv", openenv_server.base_url]) == 2
    assert "has no task routes" in capsys.readouterr().err


def test_the_launcher_needs_nothing_but_the_openenv_virtualenv():
    """It runs with another Python: the standard library at its top, never fleet_tui; the guard
    it loads by path, nothing but the standard library."""
    tree = ast.parse(LAUNCHER.read_text(encoding="utf-8"))
    top = {
        (node.module if isinstance(node, ast.ImportFrom) else node.names[0].name).split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
    }
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    assert top <= stdlib
    assert "fleet_tui" not in _imported_roots(LAUNCHER)
    assert _imported_roots(GUARD) <= stdlib


def test_it_serves_any_generated_app_on_loopback_until_interrupted(tmp_path):
    """A package with only server/app.py (no Verifiers wrapper), served with this Python, with
    the token given; the token is kept for fleet-tui's clients while it serves, not after."""
    package = tmp_path / "plain"
    (package / "server").mkdir(parents=True)
    for init in (package / "__init__.py", package / "server" / "__init__.py"):
        init.write_text("")
    (package / "server" / "app.py").write_text(
        "from starlette.applications import Starlette\n"
        "from starlette.responses import PlainTextResponse\n"
        "from starlette.routing import Route\n"
        "app = Starlette(routes=[Route('/health', lambda request: PlainTextResponse('up'))])\n"
    )
    state = tmp_path / "state"
    token = "a-token-of-my-own"
    server = serve_with_launcher(
        Path(sys.prefix), package, "--token", token, env={"XDG_STATE_HOME": str(state)}
    )
    assert server.base_url.startswith("http://127.0.0.1:") and server.token == token
    auth = {"Authorization": f"Bearer {token}"}
    assert httpx.get(f"{server.base_url}/health", headers=auth, timeout=10).text == "up"
    assert httpx.get(f"{server.base_url}/health", timeout=10).status_code == 401
    kept = state / "fleet-tui" / "openenv-serve" / server.base_url.rsplit(":", 1)[1]
    assert kept.read_text() == token and kept.stat().st_mode & 0o777 == 0o600
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=60) == 0
    assert not kept.exists()
