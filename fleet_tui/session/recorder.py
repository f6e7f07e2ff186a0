"""Append every event of a session to a JSONL file as it happens.

A writer thread redacts, encodes, hashes and writes, so a big result costs the caller nothing;
`close` (also run at exit, after a crash) writes what is queued.

Each event is one line, written and flushed at once, so a crash loses nothing that already
happened. Images go beside the session file (`NAME.images/<sha256>.<ext>`), binary resource
contents too (`NAME.blobs/<sha256>.<ext>`), and so does any other block, or structured content,
whose JSON is over INLINE_LIMIT (`NAME.blocks/<sha256>.json`): the line holds a reference.
Besides calls and results: resource reads, prompt gets, servers' logs, unmade calls, notes.

A recorder, given to `SessionController` (its `recorder`), hears its events (`on_event`) and
writes them. Secrets never reach the disk (`redact`); the files are their owner's alone.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import queue
import re
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from fleet_tui.big_json import compact_json_bytes
from fleet_tui.envs.base import (
    ContentBlock,
    EnvInfo,
    ImageBlock,
    ResetResult,
    ResourceBlock,
    Task,
    ToolResult,
    Verdict,
)
from fleet_tui.envs.catalog import PromptResult, ReadResult
from fleet_tui.envs.server_events import ServerLog
from fleet_tui.envs.targets import InstanceTarget, Target
from fleet_tui.private_files import (
    make_private_dir,
    open_private_append_bytes,
    state_dir,
    write_private_once,
)
from fleet_tui.session.events import (
    BLOBS_FOLDER,
    BLOCKS_FOLDER,
    IMAGES_FOLDER,
    CallEvent,
    ConnectEvent,
    ErrorEvent,
    LogEvent,
    NoteEvent,
    PromptEvent,
    ReadEvent,
    RecordedMessage,
    RecordedResult,
    ResetEvent,
    ResultEvent,
    SessionStart,
    StoredBlob,
    StoredBlock,
    StoredImage,
    StoredJson,
    TaskEvent,
    UnmadeEvent,
    VerifyEvent,
)
from fleet_tui.session_records import (
    Agent,
    CallFinished,
    CallNoted,
    CallRecord,
    CallStarted,
    Connected,
    PromptGot,
    ResetDone,
    ResourceRead,
    SessionEvent,
    TaskChosen,
    Unmade,
    Verified,
)
from fleet_tui.text import redact

INLINE_LIMIT = 1_000_000
"""Bytes of JSON a block (or structured content) may take inline; a bigger one gets a file."""

_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp"}


def sessions_dir() -> Path:
    """Where sessions go by default: `$XDG_STATE_HOME/fleet-tui/sessions` (or ~/.local/state)."""
    return state_dir() / "sessions"


def default_session_path(label: str | None = None, now: datetime | None = None) -> Path:
    """A fresh file name in `sessions_dir()`, from the time and a label such as the env key."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S-%f")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", label or "session").strip("_") or "session"
    return sessions_dir() / f"{stamp}-{safe}.jsonl"


def recorder_for(target: Target, path: str | os.PathLike[str] | None = None) -> SessionRecorder:
    """A recorder writing to `path`, or to a new file in `sessions_dir()` named after the
    target's env key (or its kind)."""
    if path is None:
        label = target.env_key if isinstance(target, InstanceTarget) and target.env_key else None
        path = default_session_path(label or target.kind)
    return SessionRecorder(path)


def images_dir(session_path: Path) -> Path:
    return session_path.with_suffix(IMAGES_FOLDER)


def blocks_dir(session_path: Path) -> Path:
    return session_path.with_suffix(BLOCKS_FOLDER)


def blobs_dir(session_path: Path) -> Path:
    return session_path.with_suffix(BLOBS_FOLDER)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class SessionRecorder:
    """Writes one session file. Use as a context manager, or call `close()`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        make_private_dir(self.path.parent)
        self._file: BinaryIO | None = open_private_append_bytes(self.path)
        self._seq = 0
        self.last_call_seq: int | None = None
        self._call_seqs: dict[int, int] = {}
        """Each record's event seq (call or unmade call): for results, notes, reading back."""
        self._queue: queue.Queue[Callable[[], Any] | None] = queue.Queue()
        self._failure: Exception | None = None
        self._writer = threading.Thread(target=self._drain, name="session-writer", daemon=True)
        self._writer.start()
        atexit.register(self.close)
        self._write(SessionStart(seq=self._next(), at=_now()))

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Write what is queued and close the file; raises an error the writer met."""
        if self._file is not None:
            self._queue.put(None)
            self._writer.join()
            self._file.close()
            self._file = None
            atexit.unregister(self.close)
        self._raise_failure()

    def flush(self) -> None:
        """Wait until every event recorded so far is in the file."""
        self._queue.join()
        self._raise_failure()

    # -- the session's events ----------------------------------------------------------------

    def on_event(self, event: SessionEvent) -> None:
        """Record one of the controller's events (those worth keeping; after `close`, none)."""
        if self.closed:
            return
        if isinstance(event, Connected):
            self.connect(event.target, event.info, event.tools)
        elif isinstance(event, ResetDone):
            self.reset(event.seed, event.outcome, options=event.options)
        elif isinstance(event, CallStarted):
            call = event.record
            self._call_seqs[call.number] = self.call(call.tool, call.arguments, **_by(call))
        elif isinstance(event, CallFinished):
            self._call_finished(event)
        elif isinstance(event, ServerLog):
            self.server_log(event)
        elif isinstance(event, ResourceRead):
            self.read(event.uri, event.result, event.error)
        elif isinstance(event, PromptGot):
            self.prompt(event.name, event.arguments, event.result, event.error)
        elif isinstance(event, TaskChosen):
            self.task(event.task)
        elif isinstance(event, Verified):
            self.verify(event.verdict, final_answer=event.final_answer)
        elif isinstance(event, CallNoted):
            self.note(event.record)

    def _call_finished(self, event: CallFinished) -> None:
        """A call's result, or why it has none; a call never made, with why."""
        call = event.record
        if call.unmade is not None:
            unmade = call.tool, call.arguments, call.unmade, call.message
            self._call_seqs[call.number] = self.unmade(*unmade, **_by(call))
            return
        seq = self._call_seqs.get(call.number) if call.is_call else None
        if seq is None:  # a reset's or verdict's record: their own events say what they did
            return
        if call.result is not None:
            self.result(seq, call.result)
        else:
            self.error(call.message, call_seq=seq)

    def call_seq(self, number: int) -> int | None:
        """The seq of record `number`'s call (or unmade call; None: none)."""
        return self._call_seqs.get(number)

    # -- events ----------------------------------------------------------------------------

    def connect(
        self,
        target: Target | None = None,
        info: EnvInfo | None = None,
        tools: Sequence[str] = (),
    ) -> int:
        event = ConnectEvent(
            seq=self._next(), at=_now(), target=target, info=info, tools=list(tools)
        )
        return self._write(event)

    def reset(
        self,
        seed: int | None = None,
        result: ResetResult | None = None,
        *,
        options: dict[str, Any] | None = None,
    ) -> int:
        outcome = result or ResetResult()
        event = ResetEvent(
            seq=self._next(),
            at=_now(),
            seed=seed if seed is not None else outcome.seed,
            options=options or outcome.options,
            success=outcome.success,
            message=outcome.message,
            result=self._stored_result(outcome.result) if outcome.result else None,
        )
        return self._write(event)

    def call(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        caller: str | None = None,
        agent: Agent | None = None,
        asked_arguments: dict[str, Any] | None = None,
        held_s: float | None = None,
    ) -> int:
        """Record a call before it is sent (by whom, and for an agent's held call, how long it
        was held and what it asked when edited); returns its seq for `result`."""
        event = CallEvent(
            seq=self._next(),
            at=_now(),
            tool=tool,
            arguments=arguments,
            caller=caller,
            agent=agent,
            asked_arguments=asked_arguments,
            held_s=held_s,
        )
        seq = self._write(event)
        self.last_call_seq = seq
        return seq

    def result(self, call_seq: int, result: ToolResult) -> int:
        seq, at = self._next(), _now()
        self._submit(
            lambda: ResultEvent(
                seq=seq, at=at, call_seq=call_seq, result=self._stored_result(result)
            )
        )
        return seq

    def error(self, message: str, call_seq: int | None = None) -> int:
        return self._write(
            ErrorEvent(seq=self._next(), at=_now(), message=message, call_seq=call_seq)
        )

    def task(self, task: Task | None) -> int:
        return self._write(TaskEvent(seq=self._next(), at=_now(), task=task))

    def verify(self, verdict: Verdict, final_answer: str | None = None) -> int:
        event = VerifyEvent(
            seq=self._next(),
            at=_now(),
            task_key=verdict.task_key,
            final_answer=final_answer,
            after_seq=self.last_call_seq,
            verdict=verdict,
        )
        return self._write(event)

    def note(self, record: CallRecord) -> int:
        """The person's note and score on a step, as they are now."""
        fields = record.model_dump(include={"tool", "note", "score"})
        seq = self._call_seqs.get(record.number)
        return self._write(NoteEvent(seq=self._next(), at=_now(), step_seq=seq, **fields))

    def server_log(self, entry: ServerLog) -> int:
        """A server's log message (its data is already bounded, see `server_events`)."""
        at = datetime.fromtimestamp(entry.at, UTC).isoformat(timespec="milliseconds")
        event = LogEvent(
            seq=self._next(),
            at=at,
            endpoint=entry.endpoint,
            level=entry.level,
            logger=entry.logger,
            data=entry.data,
        )
        return self._write(event)

    def read(self, uri: str, result: ReadResult | None, error: str | None = None) -> int:
        """A resource read: its contents (stored as a result's blocks are), or why it failed."""
        seq, at = self._next(), _now()

        def event() -> ReadEvent:
            if result is None:
                return ReadEvent(seq=seq, at=at, uri=uri, error=error)
            return ReadEvent(
                seq=seq,
                at=at,
                uri=result.uri,
                endpoint=result.endpoint,
                contents=[self._recorded_block(content) for content in result.contents],
                latency_s=result.latency_s,
            )

        self._submit(event)
        return seq

    def prompt(
        self,
        name: str,
        arguments: dict[str, str],
        result: PromptResult | None,
        error: str | None = None,
    ) -> int:
        """A prompt got: its messages (stored as a result's blocks are), or why it failed."""
        seq, at = self._next(), _now()

        def event() -> PromptEvent:
            got = PromptEvent(seq=seq, at=at, name=name, arguments=arguments, error=error)
            if result is not None:
                got.endpoint, got.description = result.endpoint, result.description
                got.messages = [
                    RecordedMessage(role=message.role, block=self._recorded_block(message.block))
                    for message in result.messages
                ]
            return got

        self._submit(event)
        return seq

    def unmade(
        self,
        tool: str,
        arguments: dict[str, Any],
        outcome: Unmade,
        message: str,
        *,
        caller: str = "agent",
        agent: Agent | None = None,
        asked_arguments: dict[str, Any] | None = None,
        held_s: float | None = None,
    ) -> int:
        """A call that never reached the env (an agent's: refused before it could be made, or
        held then refused or abandoned)."""
        event = UnmadeEvent(
            seq=self._next(),
            at=_now(),
            tool=tool,
            arguments=arguments,
            caller=caller,
            agent=agent,
            asked_arguments=asked_arguments,
            held_s=held_s,
            outcome=outcome,
            message=message,
        )
        return self._write(event)

    @property
    def closed(self) -> bool:
        return self._file is None

    # -- plumbing --------------------------------------------------------------------------

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _write(self, event: Any) -> int:
        self._submit(lambda: event)
        return event.seq

    def _submit(self, make_event: Callable[[], Any]) -> None:
        """Queue an event (made by `make_event` on the writer thread) for the file."""
        if self._file is None:
            raise ValueError(f"session file {self.path} is closed")
        self._raise_failure()
        self._queue.put(make_event)

    def _drain(self) -> None:
        """The writer thread: one line per queued event, flushed, until `close`."""
        while (make_event := self._queue.get()) is not None:
            try:
                if self._failure is None and self._file is not None:
                    event = make_event()
                    line = compact_json_bytes(redact(event.model_dump(mode="json")))
                    self._file.write(line + b"\n")
                    self._file.flush()
            except Exception as error:  # kept for the caller: close and flush raise it
                self._failure = error
            finally:
                self._queue.task_done()
        self._queue.task_done()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure

    def _stored_result(self, result: ToolResult) -> RecordedResult:
        blocks = [self._recorded_block(block) for block in result.blocks]
        fields = result.model_dump(exclude={"blocks", "raw"})
        if (structured := self._spilled(result.structured)) is not None:
            fields.update(structured=None, structured_stored=structured)
        return RecordedResult(blocks=blocks, **fields)

    def _spilled(self, value: Any) -> StoredJson | None:
        """`value` (redacted) written to a file beside the session when its JSON is over
        INLINE_LIMIT; None when it stays inline. It is measured before it is redacted: a value
        kept inline is redacted once, with its event's line."""
        data = compact_json_bytes(value)
        if len(data) <= INLINE_LIMIT:
            return None
        if (redacted := redact(value)) != value:  # quick when equal: the same strings
            data = compact_json_bytes(redacted)
        digest = hashlib.sha256(data).hexdigest()
        folder = blocks_dir(self.path)
        make_private_dir(folder)
        write_private_once(folder / f"{digest}.json", data)
        return StoredJson(sha256=digest, file=f"{folder.name}/{digest}.json", size_bytes=len(data))

    def _recorded_block(self, block: ContentBlock) -> Any:
        """A block as the session file holds it: images and binary resources in files of
        their own, a block whose JSON is over INLINE_LIMIT in a JSON file, the rest inline."""
        if isinstance(block, ImageBlock):
            target = store_content(images_dir(self.path), block.data, block.mime_type)
            return StoredImage(mime_type=block.mime_type, sha256=target.stem, file=_beside(target))
        if isinstance(block, ResourceBlock) and block.blob is not None:
            target = store_content(blobs_dir(self.path), block.blob, block.mime_type or "")
            return StoredBlob(
                annotations=block.annotations,
                uri=block.uri,
                mime_type=block.mime_type,
                sha256=target.stem,
                file=_beside(target),
                size_bytes=len(block.blob),
            )
        if (stored := self._spilled(block.model_dump(mode="json"))) is not None:
            return StoredBlock(kind=block.type, **stored.model_dump())
        return block


def _by(call: CallRecord) -> dict[str, Any]:
    """Who made `call`, and what the person did to it while it was held."""
    return {
        "caller": str(call.caller),
        "agent": call.agent,
        "asked_arguments": call.asked_arguments,
        "held_s": call.held_s,
    }


def _beside(target: Path) -> str:
    """A stored file's path relative to the session file's folder."""
    return f"{target.parent.name}/{target.name}"


def store_content(folder: Path, data: bytes, mime_type: str) -> Path:
    """Write bytes (an image, a resource's blob) as `folder/<sha256>.<ext>`, for the owner
    only (once: the name is the content's hash)."""
    digest = hashlib.sha256(data).hexdigest()
    make_private_dir(folder)
    target = folder / f"{digest}.{_EXTENSIONS.get(mime_type, 'bin')}"
    write_private_once(target, data)
    return target
