"""A session as the web page `fleet-tui export` writes, in the current folder, from the
palette's *Export this session as a web page…* (the session being recorded) or the session
browser's `e` (the session chosen there); the toast says where."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from fleet_tui.envs.errors import EnvError
from fleet_tui.ui.host import AppServices

if TYPE_CHECKING:
    from fleet_tui.session.recorder import SessionRecorder
    from fleet_tui.session.web_page import ExportedPage


def export_recorded_session(app: AppServices, recorder: SessionRecorder | None) -> None:
    """The palette's entry: the session being recorded, every event so far written first."""
    if recorder is None:
        app.notify(
            "This session is not recorded (--no-record): there is nothing to export.",
            severity="warning",
        )
        return
    export_session_file(app, recorder.path, before=recorder.flush)


def export_session_file(
    app: AppServices, path: Path, *, before: Callable[[], None] | None = None
) -> None:
    """Write the page of the session file `path` in a worker thread (a session of many
    pictures takes a while); `before` runs first, in that thread."""
    app.run_worker(_export(app, path, before), group="export", exit_on_error=False)


async def _export(app: AppServices, path: Path, before: Callable[[], None] | None) -> None:
    out = Path.cwd() / f"{path.stem}.html"
    try:
        page = await asyncio.to_thread(_write, path, out, before)
    except (EnvError, OSError) as error:
        reason = error.message if isinstance(error, EnvError) else str(error)
        app.notify(f"Export failed: {reason}", severity="error", markup=False)
        return
    beside = f" (and {len(page.beside)} files in {out.stem}_files/)" if page.beside else ""
    app.notify(f"Wrote {page.path}{beside}: {page.steps} steps.", markup=False, timeout=10)


def _write(path: Path, out: Path, before: Callable[[], None] | None) -> ExportedPage:
    # loaded on first use: the page's Markdown parser is not the app's to wait for at start
    from fleet_tui.session.reader import load_session
    from fleet_tui.session.web_page import export_page

    if before is not None:
        before()
    return export_page(load_session(path), out)
