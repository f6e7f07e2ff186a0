"""`fleet-tui export SESSION --html OUT`: sessions recorded on the embedded host (a desktop
episode with screenshots and a verdict; a tracker session whose issue titles are hostile HTML)
exported and opened in a real headless Chromium, offline: its steps, decoded images, verdict
text, keys and filter, and no script from env text run."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys

import pytest
from PIL import Image

from fleet_tui.envs.targets import McpTarget
from fleet_tui.local import bundled_task_files
from fleet_tui.session.reader import load_session
from fleet_tui.session.web_page import export_page
from fleet_tui.tasks.files import load_tasks
from tests.browser import chromium
from tests.test_session_replay import record, record_on

HOSTILE_TITLE = (
    "<script>document.title='pwned-by-script'</script>"
    "<img src=x onerror=\"document.body.dataset.pwned='onerror'\">"
)
HOSTILE_BODY = "# Steps\n\n- [click](javascript:document.body.dataset.pwned='link')\n- **bold**"


@pytest.fixture(scope="module")
def desktop_session(local_host, tmp_path_factory):
    task = next(t for t in load_tasks(bundled_task_files()["desktop-todo"]))
    calls = [
        ("computer", {"action": "screenshot"}),
        ("computer", {"action": "left_click", "coordinate": [200, 120]}),
        ("computer", {"action": "type", "text": "Buy milk"}),
        ("computer", {"action": "key", "text": "Return"}),
        ("computer", {"action": "screenshot"}),
    ]
    path = tmp_path_factory.mktemp("desktop") / "desktop.jsonl"
    return asyncio.run(record(path, local_host, "desktop-todo", calls, task))


@pytest.fixture(scope="module")
def hostile_session(local_host, mcp_alpha, tmp_path_factory):
    """Hostile HTML in an issue's title (JSON results) and in echoed text and Markdown."""
    folder = tmp_path_factory.mktemp("hostile")
    issue = {"project": "WEB", "title": HOSTILE_TITLE, "description": HOSTILE_BODY}
    asyncio.run(record(folder / "tracker.jsonl", local_host, "tracker", [("create_issue", issue)]))
    echoes = [("echo", {"text": HOSTILE_TITLE}), ("echo", {"text": HOSTILE_BODY})]
    asyncio.run(record_on(McpTarget(urls=[mcp_alpha.url]), folder / "echo.jsonl", echoes))
    return load_session(folder / "tracker.jsonl"), load_session(folder / "echo.jsonl")


def test_a_desktop_episode_opens_offline_with_its_steps_pictures_and_verdict(
    desktop_session, tmp_path
):
    out = tmp_path / "episode.html"
    page_file = export_page(desktop_session, out)
    calls = len(desktop_session.steps())
    with chromium(tmp_path / "profile") as page:
        page.open(out.as_uri())
        steps = page.evaluate("document.querySelectorAll('section.step').length")
        assert steps == page_file.steps == calls + 3  # the reset, the task, the verdict
        assert page.evaluate("document.querySelectorAll('section.step.call').length") == calls
        sizes = page.evaluate(
            "Array.from(document.querySelectorAll('figure.image img')).map(i => i.dataset.natural)"
        )
        shots = [s for s in desktop_session.steps() if s.call.arguments["action"] == "screenshot"]
        assert len(sizes) >= len(shots) and all(sizes), sizes  # every picture decoded
        width, height = Image.open(io.BytesIO(_first_image(desktop_session))).size
        assert f"{width}x{height}" in sizes
        verdict = page.evaluate("document.querySelector('section.verdict').textContent")
        verdict_event = desktop_session.verdicts()[0].verdict
        assert ("passed" if verdict_event.passed else "failed") in verdict
        assert "'Buy milk' rows" in verdict  # the verifier's own output
        requested = page.requested_urls()
        assert requested and all(url.startswith(("file:", "data:")) for url in requested)
        picture = Image.open(io.BytesIO(page.screenshot())).convert("L")
        assert picture.getextrema()[1] - picture.getextrema()[0] > 100  # not a blank page


def test_keys_move_between_steps_and_the_filter_narrows_them(desktop_session, tmp_path):
    out = tmp_path / "episode.html"
    export_page(desktop_session, out)
    with chromium(tmp_path / "profile") as page:
        page.open(out.as_uri())
        current = "document.querySelector('section.step.current')?.id"
        page.press("j")
        page.press("j")
        assert page.evaluate(current) == "step-2"
        page.press("k")
        assert page.evaluate(current) == "step-1"
        page.press("/")
        assert page.evaluate("document.activeElement.id") == "filter"
        page.type("left_click")
        shown = page.evaluate(
            "Array.from(document.querySelectorAll('section.step:not(.hidden)')).length"
        )
        assert shown == 1
        assert "1 of" in page.evaluate("document.getElementById('shown').textContent")
        command = page.evaluate("document.querySelector('button.copy').dataset.command")
        assert command.startswith("fleet-tui call") and "desktop-todo" in command


@pytest.mark.parametrize("which", [0, 1], ids=["json-results", "text-and-markdown"])
def test_env_text_runs_no_script_and_reads_as_text(hostile_session, which, tmp_path):
    out = tmp_path / "hostile.html"
    export_page(hostile_session[which], out)
    assert "<script>document.title" not in out.read_text()
    with chromium(tmp_path / "profile") as page:
        page.open(out.as_uri())
        page.evaluate("new Promise(r => setTimeout(r, 300))")  # any onerror would have fired
        assert "pwned" not in page.evaluate("document.title")
        assert page.evaluate("document.body.dataset.pwned") is None
        text = page.evaluate("document.getElementById('timeline').textContent")
        assert "document.title='pwned-by-script'" in text  # shown as the text it is
        links = page.evaluate(
            "Array.from(document.querySelectorAll('a[href^=\"javascript\"]')).length"
        )
        assert links == 0
        assert page.evaluate("document.querySelectorAll('section.step img[src=x]').length") == 0


def test_markdown_results_are_rendered(hostile_session, tmp_path):
    out = tmp_path / "markdown.html"
    export_page(hostile_session[1], out)
    with chromium(tmp_path / "profile") as page:
        page.open(out.as_uri())
        assert page.evaluate("document.querySelector('.markdown h1').textContent") == "Steps"
        assert page.evaluate("document.querySelector('.markdown strong').textContent") == "bold"


def test_large_pictures_go_beside_the_page(desktop_session, tmp_path):
    out = tmp_path / "small.html"
    page_file = export_page(desktop_session, out, inline_bytes=1_000)
    assert page_file.beside and all(p.parent.name == "small_files" for p in page_file.beside)
    with chromium(tmp_path / "profile") as page:
        page.open(out.as_uri())
        sizes = page.evaluate(
            "Array.from(document.querySelectorAll('figure.image img')).map(i => i.dataset.natural)"
        )
        assert sizes and all(sizes)


def test_the_export_command_writes_the_page_and_says_where(desktop_session, tmp_path):
    out = tmp_path / "cli.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fleet_tui",
            "export",
            str(desktop_session.path),
            "--html",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout and out.stat().st_size > 0
    assert load_session(desktop_session.path).events  # the session is left as it was


def test_the_export_command_refuses_a_missing_session_in_plain_words(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "fleet_tui", "export", str(tmp_path / "none.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "cannot read session file" in done.stderr and "Traceback" not in done.stderr


def _first_image(session) -> bytes:
    for step in session.steps():
        if step.result is None:
            continue
        for block in session.tool_result(step.result.result).images():
            return block.data
    raise AssertionError("no image recorded")
