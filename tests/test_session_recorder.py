"""Session recording: one flushed JSON line per event, images by hash, secrets redacted."""

from __future__ import annotations

import hashlib
import io
import signal
import stat
import subprocess
import sys
import textwrap

import pytest
from PIL import Image

from fleet_tui.envs.base import (
    AudioBlock,
    EnvError,
    EnvInfo,
    ImageBlock,
    ResetResult,
    ResourceBlock,
    Task,
    TextBlock,
    ToolResult,
    UnknownBlock,
    Verdict,
)
from fleet_tui.envs.targets import FleetTarget, LocalTarget
from fleet_tui.session import recorder as recorder_module
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import (
    SessionRecorder,
    blobs_dir,
    blocks_dir,
    default_session_path,
    images_dir,
)
from fleet_tui.text import REDACTED, redact


def png(color: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 6), color).save(buffer, format="PNG")
    return buffer.getvalue()


def test_every_event_round_trips(tmp_path):
    path = tmp_path / "s.jsonl"
    image = png("red")
    task = Task(key="t1", prompt="Do it", env_key="tracker", verifier_code="def v(env): return 1")
    with SessionRecorder(path) as recorder:
        recorder.connect(LocalTarget(env_key="tracker"), EnvInfo(kind="local"), ["a", "b"])
        recorder.reset(seed=3, result=ResetResult(message="ok"))
        recorder.task(task)
        seq = recorder.call("look", {"x": 1})
        recorder.result(
            seq,
            ToolResult(
                blocks=[TextBlock(text="hi"), ImageBlock(data=image)],
                structured={"n": 1},
                raw={"huge": "copy"},
            ),
        )
        recorder.verify(Verdict(task_key="t1", success=True, score=1.0, passed=True))

    session = load_session(path)
    assert [e.event for e in session.events] == [
        "session",
        "connect",
        "reset",
        "task",
        "call",
        "result",
        "verify",
    ]
    assert session.problems == []
    assert session.task() == task
    assert session.connect().tools == ["a", "b"]
    (step,) = session.steps()
    assert step.call.arguments == {"x": 1}
    rebuilt = session.tool_result(step.result.result)
    assert rebuilt.text() == "hi" and rebuilt.structured == {"n": 1}
    assert rebuilt.images()[0].data == image
    assert session.verdicts()[0].after_seq == seq


def test_audio_and_resource_blobs_come_back_as_the_same_bytes(tmp_path):
    path = tmp_path / "s.jsonl"
    blob = ResourceBlock(uri="file:///a", blob=b"\x00\x01", annotations={"priority": 1})
    blocks = [AudioBlock(data=b"RIFF\x00\xffWAVE"), blob]
    with SessionRecorder(path) as recorder:
        recorder.result(recorder.call("sounds", {}), ToolResult(blocks=blocks))

    session = load_session(path)
    (step,) = session.steps()
    assert [b.type for b in step.result.result.blocks] == ["audio", "stored_blob"]
    assert session.tool_result(step.result.result).blocks == blocks


def test_images_stored_once_by_hash_not_inline(tmp_path):
    path = tmp_path / "s.jsonl"
    image = png("blue")
    with SessionRecorder(path) as recorder:
        for _ in range(2):
            seq = recorder.call("computer", {"action": "screenshot"})
            recorder.result(seq, ToolResult(blocks=[ImageBlock(data=image)]))
    digest = hashlib.sha256(image).hexdigest()
    assert [p.name for p in images_dir(path).iterdir()] == [f"{digest}.png"]
    text = path.read_text()
    assert digest in text
    assert "iVBOR" not in text  # no base64 PNG inline


def test_secrets_never_written(tmp_path, monkeypatch):
    monkeypatch.setenv("FLEET_API_KEY", "sk-live-very-secret-123")
    path = tmp_path / "s.jsonl"
    target = FleetTarget(
        env_key="tracker",
        api_key="sk-live-very-secret-123",
        env_variables={"OPENAI_API_KEY": "sk-other-456", "MODE": "fast"},
    )
    with SessionRecorder(path) as recorder:
        recorder.connect(target)
        seq = recorder.call(
            "login",
            {
                "user": "ann",
                "password": "hunter2",
                "api_key": "abc123",
                "issue_key": "TRK-1",
                "headers": {"Authorization": "Bearer zzz999"},
                "max_tokens": 50,
                "note": "my key is sk-live-very-secret-123",
            },
        )
        recorder.result(seq, ToolResult(blocks=[TextBlock(text="token sent: Bearer qqq777")]))
    text = path.read_text()
    for secret in (
        "sk-live-very-secret-123",
        "sk-other-456",
        "hunter2",
        "abc123",
        "zzz999",
        "qqq777",
    ):
        assert secret not in text
    call = load_session(path).steps()[0].call
    assert call.arguments["issue_key"] == "TRK-1"  # ordinary data survives
    assert call.arguments["max_tokens"] == 50
    assert call.arguments["password"] == REDACTED
    assert "MODE" in text and "fast" in text


def recording_script(path, calls: int, text: str, then: str) -> str:
    """Python that records `calls` calls of `echo` (result: the expression `text`) to `path`,
    then runs `then`."""
    return textwrap.dedent(f"""
        from fleet_tui.envs.base import TextBlock, ToolResult
        from fleet_tui.session.recorder import SessionRecorder
        recorder = SessionRecorder({str(path)!r})
        for i in range({calls}):
            seq = recorder.call("echo", {{"i": i}})
            recorder.result(seq, ToolResult(blocks=[TextBlock(text={text})]))
    """) + textwrap.dedent(then)


def test_crash_mid_session_leaves_a_readable_file(tmp_path):
    """A recording process killed with SIGKILL mid-write: every event written is on disk."""
    path = tmp_path / "crash.jsonl"
    script = recording_script(
        path,
        5,
        "str(i)",
        """
        import time
        recorder.call("echo", {"i": 5})
        recorder.flush()  # the writer thread has written them
        recorder._file.write(b'{"seq": 99, "event": "res')  # a line cut off mid-write
        recorder._file.flush()
        print("ready", flush=True)
        time.sleep(60)
        """,
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    session = load_session(path)
    steps = session.steps()
    assert [s.call.arguments["i"] for s in steps] == [0, 1, 2, 3, 4, 5]
    assert steps[-1].result is None  # the call in flight when it died
    assert session.tool_result(steps[4].result.result).text() == "4"
    assert len(session.problems) == 1 and "truncated last line" in session.problems[0]


def test_default_path_under_xdg_state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    path = default_session_path("tracker:1.0")
    assert path.parent == tmp_path / "fleet-tui" / "sessions"
    assert path.name.endswith("-tracker_1.0.jsonl")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_session_path().parent == tmp_path / "home/.local/state/fleet-tui/sessions"


def test_unreadable_session_is_a_clear_error(tmp_path):
    with pytest.raises(EnvError, match="cannot read session file"):
        load_session(tmp_path / "missing.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("not json\n")
    with pytest.raises(EnvError, match="no session events"):
        load_session(empty)


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


BIG_TEXT = "big text " * 150_000  # 1.35 MB


def test_session_files_are_for_their_owner_only(tmp_path):
    path = tmp_path / "new" / "sessions" / "s.jsonl"
    with SessionRecorder(path) as recorder:
        seq = recorder.call("look", {})
        blocks = [ImageBlock(data=png("red")), TextBlock(text=BIG_TEXT)]
        recorder.result(seq, ToolResult(blocks=blocks))
    assert mode(tmp_path / "new") == mode(path.parent) == 0o700
    assert mode(path) == 0o600
    for folder in (images_dir(path), blocks_dir(path)):
        assert mode(folder) == 0o700
        assert [mode(file) for file in folder.iterdir()] == [0o600]


def test_big_blocks_and_structured_content_are_stored_beside_the_session(tmp_path):
    path = tmp_path / "s.jsonl"
    blocks = [
        TextBlock(text=BIG_TEXT),
        TextBlock(text="small stays inline"),
        ResourceBlock(uri="file:///big.bin", blob=bytes(range(256)) * 4000),
        UnknownBlock(raw={"kind": "mystery", "data": ["y" * 1000] * 1100}),
    ]
    structured = {"payload": "z" * 1_200_000}
    with SessionRecorder(path) as recorder:
        seq = recorder.call("big", {})
        recorder.result(seq, ToolResult(blocks=blocks, structured=structured))

    assert max(len(line) for line in path.read_text().splitlines()) < 10_000
    assert len(list(blocks_dir(path).iterdir())) == 3  # two blocks and the structured content
    assert len(list(blobs_dir(path).iterdir())) == 1  # the resource's bytes
    (step,) = load_session(path).steps()
    recorded = step.result.result
    assert [b.type for b in recorded.blocks] == ["stored", "text", "stored_blob", "stored"]
    assert [getattr(b, "kind", None) for b in recorded.blocks] == ["text", None, None, "unknown"]
    rebuilt = load_session(path).tool_result(recorded)
    assert rebuilt.blocks == blocks
    assert rebuilt.structured == structured


def test_a_stored_block_keeps_secrets_out_and_a_missing_one_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("FLEET_API_KEY", "sk-live-very-secret-123")
    path = tmp_path / "s.jsonl"
    with SessionRecorder(path) as recorder:
        seq = recorder.call("leak", {})
        recorder.result(
            seq, ToolResult(blocks=[TextBlock(text=BIG_TEXT + "sk-live-very-secret-123")])
        )
    (stored,) = blocks_dir(path).iterdir()
    assert "sk-live-very-secret-123" not in stored.read_text()
    session = load_session(path)
    assert session.tool_result(session.steps()[0].result.result).text() == BIG_TEXT + REDACTED
    stored.unlink()
    with pytest.raises(EnvError, match="session block missing"):
        session.tool_result(session.steps()[0].result.result)


def test_a_bearer_token_in_a_stored_block_is_redacted_in_any_case(tmp_path):
    """A megabyte text is searched for "bearer" without a lowered copy: any case still counts."""
    path = tmp_path / "s.jsonl"
    with SessionRecorder(path) as recorder:
        seq = recorder.call("leak", {})
        text = BIG_TEXT + "sent: bEaReR tok.en-123 done"
        recorder.result(seq, ToolResult(blocks=[TextBlock(text=text)]))
    (stored,) = blocks_dir(path).iterdir()
    assert "tok.en-123" not in stored.read_text()
    session = load_session(path)
    recorded = session.tool_result(session.steps()[0].result.result).text()
    assert recorded == BIG_TEXT + f"sent: bEaReR {REDACTED} done"


def test_a_big_block_kept_inline_is_redacted_once_with_its_line(tmp_path, monkeypatch):
    """Whether a block gets a file of its own is measured before it is redacted: a block kept
    inline is searched for secrets once (the search costs about 0.5 ms a megabyte)."""
    text = "almost a megabyte, Bearer zzz999 " + "y" * 900_000
    searched: list[object] = []

    def counting_redact(value, secrets=None):
        searched.append(value)
        return redact(value, secrets)

    monkeypatch.setattr(recorder_module, "redact", counting_redact)
    path = tmp_path / "s.jsonl"
    with SessionRecorder(path) as recorder:
        seq = recorder.call("big", {})
        recorder.result(seq, ToolResult(blocks=[TextBlock(text=text)]))
    assert not blocks_dir(path).exists()
    assert sum(text in repr(value) for value in searched) == 1
    session = load_session(path)
    recorded = session.tool_result(session.steps()[0].result.result).text()
    assert recorded == text.replace("zzz999", REDACTED)


def test_close_writes_every_queued_event(tmp_path):
    """Big results are written by the writer thread; close waits for all of them."""
    path = tmp_path / "big.jsonl"
    recorder = SessionRecorder(path)
    text = "line\n" * 200_000
    for i in range(5):
        seq = recorder.call("dump", {"i": i})
        recorder.result(seq, ToolResult(blocks=[TextBlock(text=f"{i}:{text}")]))
    recorder.close()
    steps = load_session(path).steps()
    assert [s.call.arguments["i"] for s in steps] == [0, 1, 2, 3, 4]
    assert all(s.result is not None for s in steps)


def test_a_process_that_crashes_without_closing_still_writes_every_event(tmp_path):
    path = tmp_path / "crashed.jsonl"
    script = recording_script(path, 20, '"x" * 100_000', 'raise RuntimeError("the app crashed")')
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 1 and "the app crashed" in run.stderr
    steps = load_session(path).steps()
    assert [s.call.arguments["i"] for s in steps] == list(range(20))
    assert all(s.result is not None for s in steps)
