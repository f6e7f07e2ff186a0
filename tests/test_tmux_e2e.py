"""End to end in a real terminal: `fleet-tui demo` in tmux, driven by keys, read by capture-pane."""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def screen(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session)


def wait_screen(session: str, *needles: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = screen(session)
        if all(needle in text for needle in needles):
            return text
        time.sleep(0.2)
    raise AssertionError(f"{needles} not on screen after {timeout:g}s:\n{text}")


def press_escape(session: str) -> None:
    """A lone ESC: wait so the terminal parser does not join it with the next key."""
    tmux("send-keys", "-t", session, "Escape")
    time.sleep(0.6)


def alive(session: str) -> bool:
    return (
        subprocess.run(["tmux", "has-session", "-t", session], capture_output=True).returncode == 0
    )


def start_in_tmux(command: str, name: str, size: tuple[int, int] = (120, 35)) -> str:
    """A shell command in a new detached tmux session of `size`; the session's name."""
    session = f"fleet-tui-{name}-{uuid.uuid4().hex[:8]}"
    columns, rows = size
    tmux("new-session", "-d", "-s", session, "-x", str(columns), "-y", str(rows),
         "-e", "COLORTERM=truecolor", command)  # fmt: skip
    return session


def start_demo(*options: str) -> str:
    """`fleet-tui demo OPTIONS` in a new tmux session; the session's name."""
    return start_in_tmux(shlex.join([sys.executable, "-m", "fleet_tui", "demo", *options]), "e2e")


def quit_demo(session: str) -> None:
    tmux("send-keys", "-t", session, "C-q")
    deadline = time.monotonic() + 30
    while alive(session) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(session), "ctrl+q quits (after closing the instance)"


@pytest.fixture
def demo_session():
    session = start_demo()
    yield session
    if alive(session):
        tmux("kill-session", "-t", session)


def test_demo_in_tmux(demo_session):
    session = demo_session
    wait_screen(session, "desktop-todo", "Screenshot", "/api/v1/mcp")
    wait_screen(session, "click fills form", "screenshot")
    # The history (its keys in the footer) shows the first screenshot call; F1 shows the keys;
    # esc closes the help.
    tmux("send-keys", "-t", session, "F3")
    wait_screen(session, "Re-run", "computer", "ok")
    tmux("send-keys", "-t", session, "F1")
    wait_screen(session, "Help", "Re-run the call")
    press_escape(session)
    # Typing mode sends keystrokes as computer actions.
    tmux("send-keys", "-t", session, "C-t")
    wait_screen(session, "TYPING")
    tmux("send-keys", "-t", session, "-l", "tea")
    wait_screen(session, "typed")
    press_escape(session)
    quit_demo(session)


def test_demo_records_where_asked(tmp_path):
    """`demo --record FILE`, as the README says: the session is written there."""
    recording = tmp_path / "demo.jsonl"
    session = start_demo("--record", str(recording))
    try:
        wait_screen(session, "desktop-todo", "click fills form", "screenshot")
        quit_demo(session)
    finally:
        if alive(session):
            tmux("kill-session", "-t", session)
    events = [json.loads(line) for line in recording.read_text().splitlines()]
    calls = [event for event in events if event["event"] == "call"]
    assert calls and calls[0]["tool"] == "computer", events


def test_demo_keeps_keys_typed_at_once_and_offers_its_tasks(demo_session):
    """Keys typed before the app is up reach the tool filter (the terminal probe kept them, and
    none of its answer leaks in); the sidebar stays beside the picture at 120 columns; a hint
    says what to try; f6 shows the bundled tasks and f8 runs the picked one's verifier."""
    session = demo_session
    tmux("send-keys", "-t", session, "-l", "scr")
    wait_screen(session, "f6 picks a task")
    text = wait_screen(session, "scr", "1/2 tools")
    assert "[?" not in text  # no terminal answer typed into the filter
    assert "Tools Hist" in text  # the sidebar's tabs
    tmux("send-keys", "-t", session, "F6")
    wait_screen(session, "todo-add", "Start task")
    for _ in range(3):  # a key pressed while the pane still mounts (a loaded machine) is lost
        tmux("send-keys", "-t", session, "F8")  # its verifier, on the untouched list: it fails
        with contextlib.suppress(AssertionError):
            wait_screen(session, "FAIL score 0", timeout=20)
            break
    else:
        raise AssertionError(f"f8 gave no verdict:\n{screen(session)}")
