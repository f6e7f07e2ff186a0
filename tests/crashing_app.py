"""`python -m tests.crashing_app ARGS...`: `fleet-tui ARGS...` whose app has one more key, f12,
that raises: a bug in the app, to see what an unhandled exception leaves behind."""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding

from fleet_tui.cli import main
from fleet_tui.ui import app as app_module
from fleet_tui.ui import run


class CrashingApp(app_module.FleetTuiApp):
    CSS_PATH = str(Path(app_module.__file__).with_name(app_module.FleetTuiApp.CSS_PATH))
    BINDINGS = [Binding("f12", "crash", "Crash", priority=True), *app_module.FleetTuiApp.BINDINGS]

    def action_crash(self) -> None:
        raise RuntimeError("a bug in the app")


if __name__ == "__main__":
    run.FleetTuiApp = CrashingApp
    raise SystemExit(main())
