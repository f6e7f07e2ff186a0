"""*Export this session as a web page…* (command palette): the session being recorded, as the
page `fleet-tui export` writes, in the current folder; the toast says where."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from fleet_tui.envs.base import EnvError
from fleet_tui.session.recorder import SessionRecorder
from fleet_tui.ui.host import AppServices

if TYPE_CHECKING:
    from fleet_tui.session.web_page import ExportedPage


def export_recorded_session(app: AppServices, recorder: SessionRecorder | None) -> None:
    """Write the page in a worker thread (a session of many pictures takes a while)."""
    if recorder is None:
        app.notify(
            "This session is not recorded (--no-record): there is nothing to export.",
            severity="warning",
        )
        return
    app.run_worker(_export(app, recorder), group="export", exit_on_error=False)


async def _export(app: AppServices, recorder: SessionRecorder) -> None:
    out = Path.cwd() / f"{recorder.path.stem}.html"
    try:
        page = await asyncio.to_thread(_write, recorder, out)
    except (EnvError, OSError) as error:
        reason = error.message if isinstance(error, EnvError) else str(error)
        app.notify(f"Export failed: {reason}", severity="error", markup=False)
        return
    beside = f" (and {len(page.beside)} files in {out.stem}_files/)" if page.beside else ""
    app.notify(f"Wrote {page.path}{beside}: {page.steps} steps.", markup=False, timeout=10)


def _write(recorder: SessionRecorder, out: Path) -> ExportedPage:
    # loaded on first use: the page's Markdown parser is not the app's to wait for at start
    from fleet_tui.session.reader import load_session
    from fleet_tui.session.web_page import export_page

    recorder.flush()  # every event so far is in the file
    return export_page(load_session(recorder.path), out)
