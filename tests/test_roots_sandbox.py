"""No roots are offered unless asked: server-filesystem, which replaces the folder it was
configured with by the roots a client offers, keeps its own sandbox when fleet-tui runs from
another folder (before, the current folder was offered and became the one it could read)."""

from __future__ import annotations

from pathlib import Path

from tests.cli_run import fleet_tui
from tests.fixtures.filesystem_server import Filesystem


def read_file(server: Filesystem, allowed: Path, path: Path, cwd: Path):
    command = server.stdio_command(allowed)
    return fleet_tui("call", "--stdio", command, "read_text_file", "-a", f"path={path}", cwd=cwd)


def test_the_configured_folder_stays_the_sandbox_when_run_from_another_folder(
    filesystem_server: Filesystem, tmp_path: Path
):
    allowed, home = tmp_path / "allowed", tmp_path / "home"
    allowed.mkdir(), home.mkdir()
    (allowed / "inside.txt").write_text("configured folder")
    (home / "private.txt").write_text("not for the server")

    inside = read_file(filesystem_server, allowed, allowed / "inside.txt", cwd=home)
    assert inside.returncode == 0, inside.stderr
    assert "configured folder" in inside.stdout

    outside = read_file(filesystem_server, allowed, home / "private.txt", cwd=home)
    assert outside.returncode == 1
    assert "not for the server" not in outside.stdout
    assert "Access denied" in outside.stdout
