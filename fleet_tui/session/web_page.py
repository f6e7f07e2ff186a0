"""A recorded session as one web page that opens offline in any browser (`fleet-tui export
SESSION --html OUT.html`): the episode as a timeline — the target, each reset and its
observation, each call with its caller, arguments, result, latency, reward and done, verdicts
with their output, agent calls refused or abandoned before reaching the env — with a filter
box, j/k between steps, and per call the `fleet-tui call` line that makes it again.

The page is one file: its style and script inline, images embedded up to `INLINE_BYTES` (larger
media go beside it in `OUT_files/`). Env text is data: every string is escaped where it enters
the page (`web_blocks.py`), and the page's Content-Security-Policy runs only its own script and
style (by their hashes) and loads nothing from the network, so a session whose results hold
`<script>` or `onerror=` runs nothing. Secrets were redacted when the session was written; the
target's are redacted again in the call lines, as in the app's copy.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fleet_tui.call_command import call_command
from fleet_tui.session.events import (
    CallEvent,
    ConnectEvent,
    ErrorEvent,
    LogEvent,
    NoteEvent,
    PromptEvent,
    ReadEvent,
    ResetEvent,
    ResultEvent,
    SessionStart,
    TaskEvent,
    UnmadeEvent,
    VerifyEvent,
)
from fleet_tui.session.reader import Session
from fleet_tui.session.timeline import score_mark
from fleet_tui.session.web_blocks import (
    BlockWriter,
    MediaStore,
    cut,
    details,
    esc,
    json_html,
    note,
    text_html,
)

INLINE_BYTES = 2 * 1024 * 1024
"""Media up to this size are embedded in the page; larger ones are written beside it."""
MAX_LOG_ENTRIES = 1_000
"""Server log messages shown; past this the page says how many more the session holds."""
CALL_FIELDS = {"seq", "at", "event", "tool", "arguments"}
"""A call event's fields shown in its heading; any others (who called, edits, hold time) are
listed under it as they were recorded."""


@dataclass
class ExportedPage:
    path: Path
    steps: int
    """Entries on the timeline (resets, calls, verdicts, reads, ...)."""
    beside: list[Path] = field(default_factory=list)
    """Media written beside the page, too large to embed."""


def export_page(session: Session, out: Path, *, inline_bytes: int = INLINE_BYTES) -> ExportedPage:
    """Write `session` as a web page at `out` (and large media into `OUT_files/`)."""
    media = MediaStore(out.with_name(f"{out.stem}_files"), inline_bytes)
    timeline = _Timeline(session, BlockWriter(session, media))
    entries = timeline.entries()
    out.write_text(_document(session, timeline, entries), encoding="utf-8")
    return ExportedPage(out, len(entries), media.written)


class _Timeline:
    """The session's events as the page's entries, numbered in order."""

    def __init__(self, session: Session, blocks: BlockWriter) -> None:
        self.session, self.blocks = session, blocks
        self.results = {e.call_seq: e for e in session.events if isinstance(e, ResultEvent)}
        self.errors = {e.call_seq: e for e in session.events if isinstance(e, ErrorEvent)}
        connect = session.connect()
        self.target = connect.target if connect else None
        self.step_of_seq: dict[int, int] = {}
        self.rewards: list[float] = []
        self.logs_left_out = 0

    def entries(self) -> list[str]:
        entries: list[str] = []
        logs = 0
        for event in self.session.events:
            if isinstance(event, LogEvent):
                logs += 1
                if logs > MAX_LOG_ENTRIES:
                    self.logs_left_out += 1
                    continue
            body = self.entry(event, len(entries) + 1)
            if body is not None:
                self.step_of_seq[event.seq] = len(entries) + 1
                entries.append(body)
        return entries

    def entry(self, event: Any, number: int) -> str | None:
        if isinstance(event, CallEvent):
            return self.call(event, number)
        if isinstance(event, ResetEvent):
            return self.reset(event, number)
        if isinstance(event, VerifyEvent):
            return self.verdict(event, number)
        if isinstance(event, UnmadeEvent):
            heading = f"{esc(event.outcome)} call <b>{esc(event.tool)}</b> by {esc(event.caller)}"
            body = json_html(event.arguments, "arguments") + note(event.message, error=True)
            return _entry(number, "unmade", heading, body, "error")
        if isinstance(event, ErrorEvent) and event.call_seq is None:
            return _entry(number, "error", "error", note(event.message, error=True), "error")
        if isinstance(event, TaskEvent):
            task = event.task
            heading = f"task <b>{esc(task.key)}</b>" if task else "no task"
            return _entry(number, "task", heading, text_html(task.prompt) if task else "")
        if isinstance(event, ReadEvent):
            body = "".join(self.blocks.stored(block) for block in event.contents)
            return _entry(number, "read", f"read <code>{esc(event.uri)}</code>",
                          body + (note(event.error, error=True) if event.error else ""),
                          "error" if event.error else "ok")  # fmt: skip
        if isinstance(event, PromptEvent):
            body = json_html(event.arguments, "arguments") + "".join(
                f'<div class="label">{esc(m.role)}</div>' + self.blocks.stored(m.block)
                for m in event.messages
            )
            return _entry(number, "prompt", f"prompt <b>{esc(event.name)}</b>",
                          body + (note(event.error, error=True) if event.error else ""),
                          "error" if event.error else "ok")  # fmt: skip
        if isinstance(event, NoteEvent):
            return self.person_note(event, number)
        if isinstance(event, LogEvent):
            heading = f"log {esc(event.level)} · {esc(event.endpoint)}"
            return _entry(number, "log", heading, json_html(event.data, "data", open_=False))
        return None  # session start, connect: in the page's heading

    def person_note(self, event: NoteEvent, number: int) -> str:
        """The person's note and score on a step, naming the step's entry."""
        step = self.step_of_seq.get(event.step_seq or 0)
        about = f"step {step} " if step else ""
        score = f" · score {score_mark(event.score)}" if event.score is not None else ""
        heading = f"note on {about}<b>{esc(event.tool)}</b>{score}"
        return _entry(number, "note", heading, text_html(event.note) if event.note else "")

    def call(self, event: CallEvent, number: int) -> str:
        result = self.results.get(event.seq)
        error = self.errors.get(event.seq)
        facts = [f"{key}: {value}" for key, value in event.model_dump(exclude=CALL_FIELDS).items()]
        body = json_html(event.arguments, "arguments")
        if facts:
            body = "".join(f'<div class="fact">{esc(fact)}</div>' for fact in facts) + body
        status, marks = "none", ""
        if result is not None:
            recorded = result.result
            status = "rejected" if recorded.rejected else "error" if recorded.is_error else "ok"
            marks = _result_marks(recorded.latency_s, recorded.reward, recorded.done)
            if recorded.reward is not None and not recorded.rejected:
                self.rewards.append(recorded.reward)
            body += self.blocks.result(recorded)
        elif error is not None:
            status = "error"
            body += note(error.message, error=True)
        else:
            body += note("no answer recorded (the session ended before it came)")
        if self.target is not None:
            line = call_command(self.target, event.tool, event.arguments)
            body += (
                f'<div class="command"><code>{esc(line)}</code>'
                f'<button class="copy" data-command="{esc(line)}">copy</button></div>'
            )
        heading = f"call <b>{esc(event.tool)}</b> {marks}"
        return _entry(number, "call", heading, body, status)

    def reset(self, event: ResetEvent, number: int) -> str:
        said = [f"seed {event.seed}"] if event.seed is not None else []
        said += [f"{key}={value}" for key, value in event.options.items()]
        body = note(event.message) if event.message else ""
        if event.result is not None:
            body += self.blocks.result(event.result)
        marks = _result_marks(event.result.latency_s, None, None) if event.result else ""
        heading = f"reset {esc(' '.join(said))} {marks}"
        return _entry(number, "reset", heading, body, "ok" if event.success else "error")

    def verdict(self, event: VerifyEvent, number: int) -> str:
        verdict = event.verdict
        status = "passed" if verdict.passed else "failed"
        score = f" score {verdict.score:g}" if verdict.score is not None else ""
        after = self.step_of_seq.get(event.after_seq or -1)
        where = f" after #{after}" if after else ""
        time = (
            f' <span class="latency">{verdict.execution_time_ms:.0f} ms</span>'
            if verdict.execution_time_ms is not None
            else ""
        )
        heading = f"verifier <b>{esc(status)}</b>{esc(score)}{esc(where)}{time}"
        body = "".join(
            details(esc(name), f'<pre class="text">{esc(cut(text))}</pre>', open_=True)
            for name, text in (
                ("output", verdict.stdout),
                ("error", " ".join(filter(None, [verdict.error_type, verdict.error_message]))),
                ("traceback", verdict.traceback or ""),
            )
            if text
        )
        if event.task_key:
            body = f'<div class="fact">task: {esc(event.task_key)}</div>' + body
        return _entry(number, "verdict", heading, body, "ok" if verdict.passed else "error")


def _result_marks(latency_s: float, reward: float | None, done: bool | None) -> str:
    marks = [f'<span class="latency">{latency_s * 1000:.0f} ms</span>']
    if reward is not None:
        marks.append(f'<span class="reward">reward {reward:g}</span>')
    if done:
        marks.append('<span class="done">done</span>')
    return " ".join(marks)


def _entry(number: int, kind: str, heading: str, body: str, status: str = "") -> str:
    """One entry of the timeline; `heading` and `body` are HTML already. Its text, lowered,
    is what the filter box searches."""
    badge = f'<span class="status {esc(status)}">{esc(status)}</span>' if status else ""
    return (
        f'<section class="step {esc(kind)}" id="step-{number}" tabindex="-1">'
        f'<header><a class="n" href="#step-{number}">#{number}</a> {badge} {heading}</header>'
        f"{body}</section>"
    )


def _document(session: Session, timeline: _Timeline, entries: list[str]) -> str:
    style = _asset("web_page.css")
    script = _asset("web_page.js")
    policy = (
        "default-src 'none'; img-src data: 'self'; media-src data: 'self'; "
        f"style-src '{_hash(style)}'; script-src '{_hash(script)}'; "
        "base-uri 'none'; form-action 'none'"
    )
    connect = session.connect()
    title = connect.target.describe() if connect and connect.target else session.path.stem
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{esc(policy)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>fleet-tui session · {esc(title)}</title>",
            f"<style>{style}</style></head><body>",
            _heading(session, connect, title, timeline),
            '<main id="timeline">',
            *entries,
            "</main>",
            f"<script>{script}</script></body></html>",
        ]
    )


def _heading(
    session: Session, connect: ConnectEvent | None, title: str, timeline: _Timeline
) -> str:
    started = next((e.at for e in session.events if isinstance(e, SessionStart)), "")
    facts = [f"session {session.path.name}"]
    if started:
        facts.append(f"started {started}")
    if connect and connect.info:
        info = connect.info
        facts += [f"{info.kind}"] + [
            f"{name} {value}"
            for name, value in (
                ("env", info.env_key),
                ("version", info.version),
                ("instance", info.instance_id),
            )
            if value
        ]
    if connect:
        facts.append(f"{len(connect.tools)} tool{'' if len(connect.tools) == 1 else 's'}")
    if timeline.rewards:
        facts.append(f"reward total {sum(timeline.rewards):g}")
    left_out = [*session.problems]
    if timeline.logs_left_out:
        left_out.append(f"{timeline.logs_left_out} more server log messages in the session file")
    return (
        f'<header id="top"><h1>{esc(title)}</h1>'
        f'<p class="facts">{" · ".join(esc(fact) for fact in facts)}</p>'
        + "".join(note(problem, error=True) for problem in left_out)
        + '<nav><input id="filter" type="search" placeholder="filter steps (/)" '
        'aria-label="filter steps"> <span id="shown"></span> '
        '<span class="keys">j/k next/previous step · / filter · c copy the call line</span></nav>'
        "</header>"
    )


def _asset(name: str) -> str:
    return resources.files("fleet_tui.session").joinpath(name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")
