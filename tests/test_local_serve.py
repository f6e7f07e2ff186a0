"""`fleet-tui local serve`: prints FLEET_BASE_URL, serves the SDK, stops cleanly on signals."""

from __future__ import annotations

import signal
import subprocess
import sys

import httpx
import pytest


def start_serving(*extra: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "fleet_tui", "local", "serve", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline().strip()
    assert line.startswith("FLEET_BASE_URL=http://127.0.0.1:"), line
    return process, line.removeprefix("FLEET_BASE_URL=")


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_serve_answers_and_stops_cleanly(stop):
    process, base_url = start_serving()
    try:
        created = httpx.post(f"{base_url}/v1/env/instances", json={"env_key": "tracker"})
        assert created.status_code == 200 and created.json()["status"] == "running"
        health = httpx.get(created.json()["urls"]["health"])
        assert health.json()["status"] == "healthy"
        process.send_signal(stop)
        assert process.wait(timeout=20) == 0
        assert "local host stopped" in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()


def test_busy_port_is_a_one_line_error():
    process, base_url = start_serving()
    try:
        port = base_url.rsplit(":", 1)[1]
        clash = subprocess.run(
            [sys.executable, "-m", "fleet_tui", "local", "serve", "--port", port],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert clash.returncode == 2
        assert clash.stderr.strip().startswith(f"fleet-tui: cannot listen on 127.0.0.1:{port}")
        assert "Traceback" not in clash.stderr
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.parametrize("port", ["99999", "http"])
def test_bad_port_is_a_usage_error(port):
    result = subprocess.run(
        [sys.executable, "-m", "fleet_tui", "local", "serve", "--port", port],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "is not a port number" in result.stderr and "Traceback" not in result.stderr
