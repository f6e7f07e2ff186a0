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


def test_check_needs_a_task_file_or_an_openenv_server(capsys):
    assert main(["check"]) == 2
    assert "give --tasks FILE, or --openenv URL" in capsys.readouterr().err


def test_check_on_a_server_without_task_routes_says_so(openenv_server, capsys):
    assert main(["check", "--openenv", openenv_server.base_url]) == 2
    assert "has no task routes" in capsys.readouterr().err


def test_the_launcher_needs_nothing_but_the_openenv_virtualenv():
    """It runs with another Python: the standard library at its top, never fleet_tui."""
    tree = ast.parse(LAUNCHER.read_text(encoding="utf-8"))
    top = {
        (node.module if isinstance(node, ast.ImportFrom) else node.names[0].name).split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
    }
    assert top <= set(sys.stdlib_module_names) | {"__future__"}
    assert "fleet_tui" not in _imported_roots(LAUNCHER)


def test_it_serves_any_generated_app_on_loopback_until_interrupted(tmp_path):
    """A package with only server/app.py (no Verifiers wrapper), served with this Python."""
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
    server = serve_with_launcher(Path(sys.prefix), package)
    assert server.base_url.startswith("http://127.0.0.1:")
    assert httpx.get(f"{server.base_url}/health", timeout=10).text == "up"
    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=60) == 0
