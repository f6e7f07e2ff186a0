"""The layers hold: the parts below the UI load without Textual, and ui/ reaches envs only
through fleet_tui's own modules, never the network libraries directly.

Each import runs in a fresh interpreter, so what another test imported cannot hide a leak.
"""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import fleet_tui

PACKAGE = Path(fleet_tui.__file__).parent
NETWORK_LIBRARIES = {"mcp", "httpx", "httpx2", "fleet", "websockets"}
UI_COMMANDS = {"app", "demo"}  # the commands that start the app


def _modules(package: str) -> list[str]:
    """`package` and every module under it."""
    folder = PACKAGE.joinpath(*package.split(".")[1:])
    return [package] + [
        info.name for info in pkgutil.walk_packages([str(folder)], prefix=f"{package}.")
    ]


HEADLESS = [
    "fleet_tui.controller",
    "fleet_tui.session_catalog",
    "fleet_tui.text",
    *_modules("fleet_tui.envs"),
    *_modules("fleet_tui.forms"),
    *_modules("fleet_tui.tasks"),
    *_modules("fleet_tui.session"),
    *_modules("fleet_tui.proxy"),
    *_modules("fleet_tui.warm"),
    *[m for m in _modules("fleet_tui.commands") if m.rsplit(".", 1)[-1] not in UI_COMMANDS],
]


@pytest.mark.parametrize("module", HEADLESS)
def test_headless_module_loads_without_textual(module: str) -> None:
    code = f"import sys, {module}; print('textual' in sys.modules)"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False", f"importing {module} loads textual"


def _imported_roots(source: Path) -> set[str]:
    """The top-level package of each module `source` imports (at any depth of the file)."""
    roots: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


UI_FILES = sorted((PACKAGE / "ui").rglob("*.py"))


@pytest.mark.parametrize("source", UI_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_ui_module_imports_no_network_library(source: Path) -> None:
    """ui/ talks to an Env (through the controller), never to mcp, httpx, fleet or websockets."""
    assert not _imported_roots(source) & NETWORK_LIBRARIES


@pytest.mark.parametrize(
    "source",
    [p for p in UI_FILES if p.parent.name in ("widgets", "form_fields", "screens")],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_widgets_and_screens_do_not_import_the_app(source: Path) -> None:
    """Widgets get the controller or callables through their constructors, not the App class."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "fleet_tui.ui.app" not in modules


def _output_of(code: str) -> str:
    """What `code` prints, run in a fresh interpreter (which must succeed)."""
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_help_loads_no_models_and_no_network_or_ui_library() -> None:
    """`fleet-tui --help` stays fast: no pydantic (the models), asyncio, Textual or mcp, nor the
    MCP client's handlers (their dataclasses import `inspect`), nor json."""
    code = (
        "import sys, contextlib, io\n"
        "from fleet_tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "heavy = {'pydantic', 'asyncio', 'textual', 'mcp', 'inspect', 'json'}\n"
        "heavy.add('fleet_tui.envs.mcp_client')\n"
        "print(sorted(heavy & set(sys.modules)))"
    )
    assert _output_of(code) == "[]"


def test_the_app_entry_loads_no_schema_validator_or_markdown_parser() -> None:
    """jsonschema (with `referencing` and `regex`) loads when a schema is first compiled or
    screened, after tools arrive; markdown-it when a Markdown result or task prompt is first
    shown. Importing the app's entry module waits for neither."""
    code = (
        "import sys, fleet_tui.ui.run\n"
        "lazy = {'jsonschema', 'referencing', 'regex', 'markdown_it'}\n"
        "print(sorted(lazy & set(sys.modules)))"
    )
    assert _output_of(code) == "[]"


def test_the_app_entry_loads_neither_the_mcp_sdk_nor_panes_its_target_may_not_have() -> None:
    """What the app's first frame does not draw loads after it: the mcp SDK when connecting
    starts (in a thread), numpy when Sixel first draws, a transcript's reader and pane when one
    is opened, the Tasks, State and session-browser panes when the target has them, a session
    file's reader when a released result is read back or a session is played back, an MCP
    endpoint's code with the env that has one, the forms' widgets (and Textual's TextArea)
    with the first form."""
    code = (
        "import sys, fleet_tui.ui.run\n"
        "later = {'mcp.types', 'mcp.client.session', 'numpy', 'fleet_tui.session.trajectory_run',\n"
        "         'fleet_tui.ui.widgets.trajectory_pane', 'fleet_tui.ui.widgets.task_panel',\n"
        "         'fleet_tui.ui.widgets.state_diff', 'fleet_tui.ui.screens.session_browser',\n"
        "         'fleet_tui.session.reader', 'fleet_tui.ui.playback',\n"
        "         'fleet_tui.envs.mcp_endpoint', 'fleet_tui.ui.widgets.tool_form',\n"
        "         'textual.widgets._text_area'}\n"
        "print(sorted(later & set(sys.modules)))"
    )
    assert _output_of(code) == "[]"


def test_the_app_entry_builds_no_validator_of_the_sessions_models() -> None:
    """The models of a session (call records, session events, resources and prompts) build
    their validators when first used, after the first frame, not when the app is imported."""
    code = (
        "from fleet_tui.ui import run\n"
        "from fleet_tui.envs.catalog import Prompt, Resource\n"
        "from fleet_tui.session.events import EVENT_ADAPTER, CallEvent, SessionStart\n"
        "from fleet_tui.session_records import CallRecord\n"
        "models = (Prompt, Resource, CallEvent, SessionStart, CallRecord)\n"
        "print([m.__name__ for m in models if m.__pydantic_complete__],"
        " EVENT_ADAPTER.pydantic_complete)"
    )
    assert _output_of(code) == "[] False"
