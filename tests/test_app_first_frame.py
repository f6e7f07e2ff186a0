"""The app's first frame is drawn before connecting begins: the env is made (and the mcp SDK
imported, in a thread) only once the screen has been laid out and painted, so the work of
connecting does not hold back what the person first sees."""

from __future__ import annotations

import fcntl
import inspect
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

from textual.geometry import Size
from textual.widgets import Input

from fleet_tui.envs.base import Env
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import McpTarget, Target
from fleet_tui.ui.app import FleetTuiApp
from tests.app_driver import SIZE, wait_connected
from tests.fixtures.mcp_servers import ServedMcp


async def test_the_env_is_made_after_the_tool_filter_is_drawn(mcp_alpha: ServedMcp) -> None:
    filter_sizes: list[Size] = []

    def env_factory(target: Target) -> Env:
        filter_sizes.append(app.query_one("#tool-filter", Input).size)
        return make_env(target)

    app = FleetTuiApp(McpTarget(urls=[mcp_alpha.url]), env_factory=env_factory)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert len(filter_sizes) == 1
        assert filter_sizes[0].width > 0  # laid out (and painted in the same update) already


FIRST_FRAME_MODULES = """
import asyncio, json, sys
from types import SimpleNamespace
from fleet_tui.envs.factory import make_env
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui import images
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.trajectory import TrajectoryReplay
from fleet_tui.ui.widgets.task_features import TaskFeatures

images.choose_backend("halfcell")
target = McpTarget(urls=[sys.argv[1]])
loaded = []

def env_factory(target):
    loaded.extend(sorted(m for m in sys.modules if m.startswith(("fleet_tui", "mcp."))))
    return make_env(target)

async def main():
    app = FleetTuiApp(target, env_factory=env_factory)
    app.extensions.append(TaskFeatures.from_args(SimpleNamespace(no_record=True)).install)
    app.extensions.append(TrajectoryReplay.from_args(SimpleNamespace()).install)
    async with app.run_test(size=(120, 36)) as pilot:
        while not loaded:
            await pilot.pause(0.05)
    print(json.dumps(loaded))

asyncio.run(main())
"""


def test_the_first_frame_of_a_plain_mcp_target_loads_neither_the_sdk_nor_panes_it_lacks(
    mcp_alpha: ServedMcp,
) -> None:
    """When connecting starts (the first frame drawn, the Tasks and Trajectory features
    installed), the mcp SDK's types, the session browser, the Tasks and State panes and a
    transcript's pane are still to load: a plain MCP server has none of them open."""
    run = subprocess.run(
        [sys.executable, "-c", FIRST_FRAME_MODULES, mcp_alpha.url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    later = {
        "mcp.types",
        "fleet_tui.ui.screens.session_browser",
        "fleet_tui.ui.widgets.task_panel",
        "fleet_tui.ui.widgets.state_diff",
        "fleet_tui.ui.widgets.trajectory_pane",
    }
    assert later & set(json.loads(run.stdout)) == set()


LEFT_FOR_AFTER_THE_FIRST_FRAME = (
    "#result",
    "#screenshot-pane",
    "#history",
    "#history-empty",
    "#server-log",
    "#protocol",
)


class FirstFrameWidgets(FleetTuiApp):
    """The app, noting what its screen holds when its first frame has been painted (Textual's
    Ready)."""

    CSS_PATH = Path(inspect.getfile(FleetTuiApp)).with_name("app.tcss")
    widget_count = 0
    present: list[str] = []
    zoom_key_worked = True

    def on_ready(self) -> None:
        self.widget_count = len(list(self.screen.walk_children()))
        self.zoom_key_worked = bool(self.check_action("toggle_zoom", ()))
        self.present = [s for s in LEFT_FOR_AFTER_THE_FIRST_FRAME if self.screen.query(s)]
        super().on_ready()


async def test_the_first_frame_leaves_the_panes_out_of_sight_for_after_it(
    mcp_alpha: ServedMcp,
) -> None:
    """Textual styles every widget it mounts: the first frame holds the status bar, the tool
    list, the form and the footer (about half the screen's widgets); the result, the picture
    and the history, log and protocol tabs' content are all there once the app connects. Keys
    that reach for them wait for them."""
    app = FirstFrameWidgets(McpTarget(urls=[mcp_alpha.url]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        assert app.present == []
        assert app.widget_count < 60
        assert not app.zoom_key_worked  # a key reaching for a pane not there yet does nothing
        assert app.check_action("toggle_zoom", ()) is True
        for selector in LEFT_FOR_AFTER_THE_FIRST_FRAME:
            assert len(app.screen.query(selector)) == 1, selector
        assert len(list(app.screen.walk_children())) > 90


AT_THE_FIRST_FRAME = """
import asyncio, inspect, json, sys
from pathlib import Path
from types import SimpleNamespace
from fleet_tui.envs.targets import McpTarget
from fleet_tui.ui import images
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.server_tasks import ServerTasksWatch
from fleet_tui.ui.widgets.task_features import TaskFeatures

images.choose_backend("halfcell")
target = McpTarget(urls=[sys.argv[1]])

class NotingApp(FleetTuiApp):
    CSS_PATH = Path(inspect.getfile(FleetTuiApp)).with_name("app.tcss")
    loaded = []

    def on_ready(self):
        self.loaded = sorted(sys.modules)
        super().on_ready()

async def main():
    app = NotingApp(target)
    app.extensions.append(TaskFeatures.from_args(SimpleNamespace(no_record=True)).install)
    app.extensions.append(ServerTasksWatch().install)
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.loaded:
            await pilot.pause(0.05)
    print(json.dumps(app.loaded))

asyncio.run(main())
"""

MOUNTED_AFTER_THE_FIRST_FRAME = {
    "fleet_tui.ui.widgets.result_view",
    "fleet_tui.ui.result_format",
    "fleet_tui.ui.widgets.screenshot_pane",
    "fleet_tui.ui.widgets.history",
    "fleet_tui.ui.widgets.server_log",
    "fleet_tui.ui.widgets.protocol_log",
    "textual.widgets._data_table",
    "textual.widgets._rich_log",
    "rich.pretty",
}
"""The modules of the panes the first frame leaves out: the result (and how results are
formatted), the picture, the history (a DataTable), the server log (a RichLog, which loads
rich's pretty-printer) and the protocol log."""

UNUSED_AT_FIRST = {"fleet_tui.ui.widgets.server_tasks_pane", "fleet_tui.tasks.verify", "sqlite3"}
"""The Jobs pane, a verifier's machinery and its database snapshots: none is used before a call
runs as a task or a task is verified."""


def test_the_first_frame_loads_no_module_of_what_it_leaves_out(mcp_alpha: ServedMcp) -> None:
    """The modules of the panes mounted after the first frame, of the Jobs pane and of the
    verifiers load after that frame is painted (when they are mounted or first used), not
    before it."""
    run = subprocess.run(
        [sys.executable, "-c", AT_THE_FIRST_FRAME, mcp_alpha.url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    loaded = set(json.loads(run.stdout))
    assert "fleet_tui.ui.widgets.tool_panel" in loaded  # noted at the first frame, not before
    assert loaded & MOUNTED_AFTER_THE_FIRST_FRAME == set()
    assert loaded & UNUSED_AT_FIRST == set()


THE_PROGRAM_NOTING_ITS_FIRST_FRAME = """
import json, sys
from fleet_tui.cli import main
from fleet_tui.ui.app import FleetTuiApp

def on_ready(app):
    with open(sys.argv[1], "w") as noted:
        json.dump(sorted(sys.modules), noted)
    app.exit(0)

FleetTuiApp.on_ready = on_ready
main(sys.argv[2:])
"""

THE_SESSIONS_MODULES = {
    "pydantic",
    "fleet_tui.envs.targets",
    "fleet_tui.envs.base",
    "fleet_tui.controller",
    "fleet_tui.session_records",
    "fleet_tui.session.recorder",
}
"""The session's models (pydantic's, the targets', the env's, the session's records and events)
and the controller: the session is made once the first frame is drawn."""


def run_in_a_terminal(argv: list[str], timeout: float = 60) -> tuple[int | None, str]:
    """Run `argv` in a pseudo-terminal of 120x36 until it ends (killed after `timeout` s): its
    exit code (None when killed) and what it wrote."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program, on the terminal
        os.environ["TERM"] = "xterm-256color"
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
        os.execv(argv[0], argv)
    output = bytearray()
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    output += os.read(fd, 65536)
                except OSError:  # the terminal is closed: the program is ending
                    break
    finally:
        os.close(fd)
    while time.monotonic() < deadline + 5:
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            return os.waitstatus_to_exitcode(status), output.decode(errors="replace")
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None, output.decode(errors="replace")


def modules_at_the_first_frame(tmp_path: Path, *words: str) -> set[str]:
    """The modules `fleet-tui WORDS` has loaded when its first frame is painted, run in a
    terminal."""
    noted = tmp_path / "modules.json"
    program = [sys.executable, "-c", THE_PROGRAM_NOTING_ITS_FIRST_FRAME, str(noted), *words]
    code, output = run_in_a_terminal(program)
    assert code == 0, output[-2000:]
    return set(json.loads(noted.read_text()))


def test_the_program_draws_its_first_frame_before_the_sessions_models_load(
    mcp_alpha: ServedMcp, tmp_path: Path
) -> None:
    """`fleet-tui --mcp URL` (recording, by default) draws its first frame with none of the
    session's modules loaded: pydantic alone took some 70 ms of every start."""
    record = str(tmp_path / "session.jsonl")
    loaded = modules_at_the_first_frame(tmp_path, "--mcp", mcp_alpha.url, "--record", record)
    assert "fleet_tui.ui.widgets.tool_panel" in loaded  # noted at the first frame
    assert loaded & THE_SESSIONS_MODULES == set()


def test_a_session_that_cannot_start_ends_the_program_with_its_reason(
    mcp_alpha: ServedMcp, tmp_path: Path
) -> None:
    """The session is made after the first frame: when it cannot be (the session file cannot
    be written), the app ends with exit code 2 and says why in a line, not a traceback."""
    unwritable = tmp_path / "a-file"
    unwritable.write_text("")
    record = str(unwritable / "session.jsonl")  # its folder is a file
    program = [sys.executable, "-m", "fleet_tui", "--mcp", mcp_alpha.url, "--record", record]
    code, output = run_in_a_terminal(program)
    assert code == 2, output[-2000:]
    assert "fleet-tui: cannot start the session: Not a directory" in output
    assert "NotADirectoryError" not in output  # no traceback of it


def test_help_asked_before_the_session_is_made_does_not_make_it():
    """F1 may come before the first frame: what it lists is worked out without the session
    (computer-use keys left out until the env says it is one)."""
    from fleet_tui.ui.keymap import ACTIONS

    def no_target() -> Target:
        raise AssertionError("the session was made for help")

    app = FleetTuiApp(no_target)
    take_screenshot = next(a for a in ACTIONS if a.name == "take_screenshot")
    widen = next(a for a in ACTIONS if a.name == "widen_sidebar")
    assert not app.offers(take_screenshot) and app.offers(widen)
    assert app.made_session is None
