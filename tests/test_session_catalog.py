"""Resource reads and prompt gets in session files: recorded by the controller's listener (in
the app too), read back, listed by the session browser, and counted but not re-run by replay.
Against a real MCP server (tests/fixtures/catalog_server.py)."""

from __future__ import annotations

import json
from hashlib import sha256

import pytest

from fleet_tui.controller import SessionController
from fleet_tui.envs.base import EnvError, ResourceBlock, ToolResult
from fleet_tui.envs.targets import McpTarget
from fleet_tui.session.events import PromptEvent, ReadEvent, ResultEvent, StoredBlob, UnmadeEvent
from fleet_tui.session.reader import load_session
from fleet_tui.session.recorder import SessionRecorder, blobs_dir
from fleet_tui.text import REDACTED
from fleet_tui.ui.app import FleetTuiApp
from fleet_tui.ui.screens.session_browser import event_detail, event_summary
from fleet_tui.ui.widgets.catalog_panes import ResourcesPane
from fleet_tui.ui.widgets.task_features import TaskFeatures
from tests.app_driver import SIZE, wait_connected, wait_for
from tests.cli_run import fleet_tui
from tests.fixtures.catalog_server import BLOB
from tests.recorded import recorded

SECRET = "sk-test-secret-value-42"


async def recorded_session(url: str, path, work) -> None:
    """Connect a recorded controller to `url`, run `work(controller)`, close."""
    async with recorded(McpTarget(urls=[url]), path) as controller:
        await work(controller)


async def test_reads_and_prompts_are_recorded_with_their_contents(
    catalog_mcp, tmp_path, monkeypatch
):
    monkeypatch.setenv("FLEET_API_KEY", SECRET)
    path = tmp_path / "s.jsonl"

    async def work(controller: SessionController) -> None:
        await controller.read_resource("memo://notes")
        await controller.read_resource("memo://blob")
        with pytest.raises(EnvError):
            await controller.read_resource("memo://nowhere")
        await controller.get_prompt("greet", {"name": SECRET})
        with pytest.raises(EnvError):
            await controller.get_prompt("greet", {})

    await recorded_session(catalog_mcp.url, path, work)

    session = load_session(path)
    notes, blob, missing = [e for e in session.events if isinstance(e, ReadEvent)]
    assert notes.uri == "memo://notes" and notes.endpoint == catalog_mcp.url
    assert [c.type for c in notes.contents] == ["resource"] and notes.contents[0].text
    [stored] = blob.contents
    assert isinstance(stored, StoredBlob) and stored.size_bytes == len(BLOB)
    assert (blobs_dir(path) / f"{stored.sha256}.bin").read_bytes() == BLOB
    rebuilt = session.content_block(stored)
    assert isinstance(rebuilt, ResourceBlock) and rebuilt.blob == BLOB
    assert missing.uri == "memo://nowhere" and missing.error and not missing.contents
    greeted, refused = [e for e in session.events if isinstance(e, PromptEvent)]
    assert greeted.name == "greet" and greeted.arguments == {"name": REDACTED}
    assert [(m.role, m.block.text) for m in greeted.messages] == [("user", f"Hello {REDACTED}!")]
    assert "needs the argument(s): name" in refused.error
    assert SECRET not in path.read_text()


async def test_a_resource_read_in_the_app_is_recorded(catalog_mcp, tmp_path):
    path = tmp_path / "app.jsonl"
    features = TaskFeatures(recorder=SessionRecorder(path))
    app = FleetTuiApp(McpTarget(urls=[catalog_mcp.url]), recorder=features.recorder)
    app.extensions.append(features.install)
    async with app.run_test(size=SIZE) as pilot:
        await wait_connected(pilot)
        await wait_for(
            pilot, lambda: app.query(ResourcesPane) and app.query(ResourcesPane)[0].resources
        )
        pane = app.query_one(ResourcesPane)
        await app.run_action("show_resources")
        await pilot.pause()
        pane.options.highlighted = 1
        pane.options.focus()
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.result_view.plan and "config" in app.result_view.plan.title
        )
    features.close()

    [read] = [e for e in load_session(path).events if isinstance(e, ReadEvent)]
    assert read.uri == "memo://config"
    assert json.loads(read.contents[0].text) == {"debug": True, "level": 3}


def test_the_session_browser_lists_reads_prompts_and_unmade_calls():
    read = ReadEvent(seq=2, at="", uri="memo://notes", contents=[])
    failed = ReadEvent(seq=3, at="", uri="memo://x", error="no such resource")
    prompt = PromptEvent(seq=4, at="", name="greet", arguments={"name": "Ada"})
    unmade = UnmadeEvent(
        seq=5, at="", tool="echo", arguments={"text": "hi"}, outcome="refused", message="No."
    )

    assert event_summary(read) == "memo://notes · 0 contents"
    assert event_summary(failed) == "memo://x · no such resource"
    assert event_summary(prompt) == 'greet "name": "Ada" · 0 messages'
    assert event_summary(unmade) == 'echo "text": "hi" · refused: No.'


def test_the_session_browser_shows_where_a_results_binary_contents_went(tmp_path):
    path = tmp_path / "s.jsonl"
    with SessionRecorder(path) as recorder:
        blob = ResourceBlock(uri="memo://blob", blob=BLOB, mime_type="application/x-thing")
        recorder.result(recorder.call("fetch", {}), ToolResult(blocks=[blob]))
    session = load_session(path)
    [result] = [e for e in session.events if isinstance(e, ResultEvent)]

    shown = event_detail(session, result).plain

    assert (
        f"application/x-thing contents of 256 bytes in s.blobs/{sha256(BLOB).hexdigest()}" in shown
    )


async def test_replay_counts_reads_and_prompts_without_re_running_them(catalog_mcp, tmp_path):
    path = tmp_path / "s.jsonl"

    async def work(controller: SessionController) -> None:
        await controller.read_resource("memo://notes")
        await controller.call(controller.add_record("look", {}))
        await controller.get_prompt("plain", {})

    await recorded_session(catalog_mcp.url, path, work)

    result = fleet_tui("replay", str(path), "--mcp", catalog_mcp.url)

    assert result.returncode == 0, result.stderr
    assert "step   4 look: match" in result.stdout
    assert "2 resource reads and prompt gets not replayed" in result.stdout
