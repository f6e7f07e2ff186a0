"""A real headless Chromium for tests, driven over the DevTools protocol: open a page, evaluate
script in it, press keys, list what it requested, take a screenshot.

Debian's `chromium` package (`.ci/run` installs it); without it the tests that need a browser
are skipped, unless FLEET_TUI_REQUIRE_BROWSER is set (CI), where its absence fails them.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("FLEET_TUI_REQUIRE_BROWSER"):
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    return path


class Page:
    """One browser tab, spoken to over the DevTools protocol."""

    def __init__(self, socket: ClientConnection) -> None:
        self._socket = socket
        self._ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []
        """Every event the browser sent (Network.requestWillBeSent among them)."""

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self._ids)
        self._socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self._socket.recv(timeout=60))
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result", {}))
            self.events.append(message)

    def open(self, url: str) -> None:
        """Load `url` and wait for its load event."""
        self.send("Page.enable")
        self.send("Network.enable")
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + 60
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load")
            self.events.append(json.loads(self._socket.recv(timeout=60)))

    def evaluate(self, expression: str) -> Any:
        """The value of a script expression in the page (promises awaited)."""
        answer = self.send(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in answer:
            raise RuntimeError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def press(self, key: str) -> None:
        """A printable key pressed and released, as typed on a keyboard."""
        for kind in ("keyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent", type=kind, key=key, text=key if kind == "keyDown" else ""
            )

    def type(self, text: str) -> None:
        self.send("Input.insertText", text=text)

    def requested_urls(self) -> list[str]:
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e.get("method") == "Network.requestWillBeSent"
        ]

    def screenshot(self) -> bytes:
        return base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[Page]:
    """A headless Chromium with a fresh profile in `profile`, and its first tab."""
    process = subprocess.Popen(
        [chromium_path(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        tabs = httpx.get(f"http://127.0.0.1:{port}/json/list", timeout=30).json()
        url = next(tab["webSocketDebuggerUrl"] for tab in tabs if tab["type"] == "page")
        with connect(url, max_size=None, open_timeout=30) as socket:
            yield Page(socket)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
