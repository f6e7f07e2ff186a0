"""The run's timeline in the Agent pane: one row per event of an agent's run (its calls coming
in, held, released, sent, answered, refused by the person), each with its caller; a person's
note and score on a step, kept in the session file and in the timeline's JSON lines export.
The app runs under Pilot with `--serve-mcp`; the agent is an mcp ClientSession over real
HTTP."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

import pytest

from fleet_tui.envs.targets import Target
from fleet_tui.session.listing import summarize
from fleet_tui.session.reader import load_session
from fleet_tui.session.timeline import timeline_of
from fleet_tui.session_records import CallStatus
from fleet_tui.ui.widgets.protocol_log import ProtocolPane, entry_cells
from fleet_tui.ui.widgets.timeline_list import TimelineList
from tests.agent_driver import watched
from tests.app_driver import screen_text, wait_for
from tests.cli_run import fleet_tui


def rows(w, lists: bool = False) -> list[tuple[str, str, str, int | None]]:
    """(kind, caller, tool, step) of each timeline row (the agent's lists left out unless
    `lists`: its client lists the tools when it likes)."""
    timeline = w.app.query_one(TimelineList).rows()
    return [
        (r.kind, r.caller.split()[0], r.what, r.step) for r in timeline if lists or r.kind != "list"
    ]


def row_index(w, kind: str, step: int) -> int:
    """Where the row of `kind` on `step` is listed."""
    timeline = w.app.query_one(TimelineList).rows()
    return next(i for i, r in enumerate(timeline) if (r.kind, r.step) == (kind, step))


async def test_the_timeline_lists_an_agents_run_and_keeps_notes_and_scores(
    two_servers: Target, mcp_alpha, mcp_beta, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    session_file = tmp_path / "run.jsonl"
    async with watched(two_servers, record=session_file) as w:
        await w.finish(w.call("echo", {"text": "flows"}))
        await w.pilot.press("f11")
        held = w.call("echo", {"text": "held"})
        await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("f12")
        await w.finish(held)
        refused = w.call("echo", {"text": "refused"})
        await w.record_of("echo", CallStatus.HELD)
        await w.pilot.press("ctrl+n", "x")
        await w.finish(refused)
        expected = [
            ("request", "agent", "echo", 1),
            ("sent", "agent", "echo", 1),
            ("result", "agent", "echo", 1),
            ("request", "agent", "echo", 2),
            ("held", "agent", "echo", 2),
            ("released", "you", "echo", 2),
            ("sent", "agent", "echo", 2),
            ("result", "agent", "echo", 2),
            ("request", "agent", "echo", 3),
            ("held", "agent", "echo", 3),
            ("refused", "you", "echo", 3),
        ]
        await wait_for(w.pilot, lambda: rows(w) == expected)
        timeline = w.app.query_one(TimelineList)
        await wait_for(w.pilot, lambda: timeline.option_count == len(rows(w, lists=True)))
        timeline.focus()
        timeline.highlighted = row_index(w, "result", 2)
        await w.pilot.press("enter")
        await wait_for(w.pilot, lambda: "held" in screen_text(w.app))
        await w.pilot.press("plus", "n", *"looks right", "enter")
        record = w.app.controller.records[1]
        await wait_for(w.pilot, lambda: record.note == "looks right")
        assert record.score == 1
        timeline.highlighted = row_index(w, "refused", 3)
        await w.pilot.press("minus")
        await wait_for(w.pilot, lambda: w.app.controller.records[2].score == -1)
        await wait_for(
            w.pilot,
            lambda: (
                "[+1] looks right"
                in str(timeline.get_option_at_index(row_index(w, "result", 2)).prompt)
            ),
        )
        await w.pilot.press("j")
        exported = await wait_for(
            w.pilot, lambda: next(tmp_path.glob("run-timeline-*.jsonl"), None)
        )
        lines = [json.loads(line) for line in exported.read_text().splitlines()]
        lines = [line for line in lines if line["kind"] != "list"]
        assert [(line["kind"], line["step"]) for line in lines] == [
            (k, s) for k, _, _, s in expected
        ]
        assert {
            (line["step"], line["note"], line["score"]) for line in lines if line["step"] != 1
        } == {
            (2, "looks right", 1),
            (3, "", -1),
        }
    recorded = timeline_of(load_session(session_file))
    notes = {
        (row.kind, row.note, row.score) for row in recorded if row.note or row.score is not None
    }
    assert notes == {
        ("held", "looks right", 1),
        ("sent", "looks right", 1),
        ("result", "looks right", 1),
        ("refused", "", -1),
        ("held", "", -1),
    }
    exported = fleet_tui("export", str(session_file), "--timeline", "-", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert [json.loads(line) for line in exported.stdout.splitlines()] == [
        asdict(row) for row in recorded
    ]
    page = fleet_tui("export", str(session_file), "--html", "run.html", cwd=tmp_path)
    assert page.returncode == 0, page.stderr
    html = (tmp_path / "run.html").read_text()
    assert "note on step 2 <b>echo</b> · score +1" in html
    assert "looks right" in html
    assert "note on step 3 <b>echo</b> · score -1" in html
    servers = ("--mcp", mcp_alpha.url, "--mcp", mcp_beta.url)
    replayed = fleet_tui("replay", str(session_file), *servers, cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert "note [+1] looks right" in replayed.stdout
    assert summarize(session_file, datetime.now()).notes == 3  # the session browser's count


async def test_the_agents_messages_show_in_the_protocol_pane_and_its_lists_in_the_timeline(
    two_servers: Target,
):
    async with watched(two_servers) as w:
        await w.finish(w.agent.list_tools())
        await w.finish(w.call("echo", {"text": "seen"}))
        traffic = w.app.controller.traffic
        agent = await wait_for(
            w.pilot,
            lambda: (
                [(e.direction, e.kind, e.method) for e in traffic if e.side == "agent"][-4:]
                == [
                    ("in", "request", "tools/list"),
                    ("out", "response", "tools/list"),
                    ("in", "request", "tools/call"),
                    ("out", "response", "tools/call"),
                ]
                and [e for e in traffic if e.side == "agent"]
            ),
        )
        answer = agent[-1].message
        assert answer["result"]["content"][0]["text"] == "seen"
        assert any(e.side == "env" and e.method == "tools/call" for e in traffic)
        assert [e.seq for e in traffic] == sorted({e.seq for e in traffic})
        assert ("list", "agent", "tools/list") in [(k, c, t) for k, c, t, _ in rows(w, lists=True)]
        await w.pilot.press("f10", *"agent tools/call")  # the Protocol pane, filtered
        pane = w.app.query_one(ProtocolPane)
        await wait_for(w.pilot, lambda: len(pane.rows) == 2)
        assert [(e.side, e.direction) for e in pane.rows] == [("agent", "in"), ("agent", "out")]
        assert "agent ← tools/call" in str(entry_cells(pane.rows[0])[0])
