"""`fleet-tui export SESSION.jsonl --html OUT.html`: a recorded session as one self-contained
web page a teammate opens offline in any browser (`session/web_page.py`);
`--timeline OUT.jsonl`: its timeline instead, one JSON object a line, with the person's notes
and scores on its steps (`session/timeline.py`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from fleet_tui.commands.output import err, out

if TYPE_CHECKING:
    from fleet_tui.session.reader import Session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", metavar="SESSION.jsonl", help="a recorded session file")
    parser.add_argument(
        "--html",
        metavar="OUT.html",
        help="where to write the page (default: the session's name with .html, in the current "
        "folder); media too large to embed go beside it in OUT_files/",
    )
    parser.add_argument(
        "--embed-limit",
        metavar="MB",
        type=float,
        default=2.0,
        help="embed images and other media up to this size in the page (default: 2)",
    )
    parser.add_argument("--open", action="store_true", help="open the page in a web browser")
    parser.add_argument(
        "--timeline",
        metavar="OUT.jsonl",
        help="write the session's timeline instead of a page: one JSON object a line (kind, "
        "caller, tool, detail, step, time, note, score); - writes it to stdout",
    )


def run(args: argparse.Namespace) -> int:
    from fleet_tui.browser import open_browser
    from fleet_tui.envs.errors import EnvError
    from fleet_tui.session.reader import load_session
    from fleet_tui.session.web_page import export_page

    session = load_session(args.session)
    for problem in session.problems:
        err(f"fleet-tui: {args.session}: {problem}")
    if args.timeline:
        return _write_timeline(session, args.timeline)
    target = Path(args.html or f"{Path(args.session).stem}.html")
    if target.suffix.lower() not in (".html", ".htm"):
        raise EnvError(f"{target}: the page's name must end in .html")
    try:
        page = export_page(session, target, inline_bytes=int(args.embed_limit * 1024 * 1024))
    except OSError as error:
        raise EnvError(f"cannot write {target}: {error.strerror}") from None
    beside = f", {len(page.beside)} files beside it in {target.stem}_files/" if page.beside else ""
    out(f"wrote {page.path} ({page.steps} steps{beside})")
    if args.open and not open_browser(page.path.resolve().as_uri()):
        err("fleet-tui: no graphical browser here; open the file in one")
    return 0


def _write_timeline(session: Session, where: str) -> int:
    from fleet_tui.envs.errors import EnvError
    from fleet_tui.session.timeline import timeline_of, write_timeline

    rows = timeline_of(session)
    if where == "-":
        for row in rows:
            out(row.as_json())
        return 0
    try:
        write_timeline(rows, Path(where))
    except OSError as error:
        raise EnvError(f"cannot write {where}: {error.strerror}") from None
    out(f"wrote {where} ({len(rows)} rows)")
    return 0
