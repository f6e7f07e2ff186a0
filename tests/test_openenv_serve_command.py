"""`fleet-tui openenv serve` says in plain words what is missing before it starts anything.
(It serving real envs is tested end to end in test_openenv_import_verifiers*.py.)"""

from __future__ import annotations

import pytest

from fleet_tui.cli import main


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
